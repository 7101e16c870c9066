/**
 * A call's prompt estimate in a run (the shared estimator, src/estimate/): the provider's own
 * count where it offers one (Anthropic count_tokens, cached per prompt hash), else our o200k
 * count × the ratio learned for (base URL, model, request shape), plus the published tool
 * prompt (request-context.ts). `counted` is our o200k count of the prompt.
 */
import { BillingRatios } from '../estimate/billing-ratios.js';
import { PromptCountCache } from '../estimate/prompt-count-cache.js';
import { PromptEstimator, type PromptEstimate } from '../estimate/prompt-estimator.js';
import { runRequestContext } from '../estimate/request-context.js';
import type { GenerateRequest } from '../providers/spec.js';
import type { RunContext } from './unit-context.js';

export async function estimatePrompt(run: RunContext, request: Omit<GenerateRequest, 'signal'>, counted: number): Promise<PromptEstimate> {
  const { provider } = run;
  if (!run.promptExact && provider.countPromptTokens !== undefined) {
    const count = provider.countPromptTokens.bind(provider);
    const prompt = { model: request.model, messages: request.messages, tools: request.tools };
    const providerCount = await run.promptCounts.count(run.baseUrl, prompt, () => count(request, run.signal));
    if (providerCount !== undefined) return run.estimator.fromProviderCount(counted, providerCount);
  }
  // On the simulator the count is exact (it bills with the same rule); elsewhere the published tool prompt comes on top.
  const context = run.promptExact ? {} : runRequestContext(provider.protocol, request);
  return run.estimator.fromCount({ baseUrl: run.baseUrl, model: request.model }, counted, 0, context);
}

/** A run's estimator state: nothing learned yet, no prompt counted yet. */
export function runEstimation(exact: boolean): Pick<RunContext, 'estimator' | 'promptCounts'> {
  return { estimator: new PromptEstimator(new BillingRatios(), exact), promptCounts: new PromptCountCache() };
}
