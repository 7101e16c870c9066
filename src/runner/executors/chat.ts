/**
 * The `chat` executor: skill text as system prompt, the case as the user message, n paths
 * either as one call with native `n` or as n parallel calls, each under the budget policy.
 */
import { countPromptTokens } from '../../core/tokens.js';
import type { GenerateResult } from '../../providers/spec.js';
import { planPathBudget } from '../../budget/path-budget.js';
import { estimatePrompt } from '../estimate-prompt.js';
import { callModel, type CallOutcome } from '../call-model.js';
import { buildMessages } from '../plan.js';
import type { Executor, PathRun, UnitContext } from '../unit-context.js';

export function chatExecutor(): Executor {
  return { name: 'chat', run: runChat };
}

async function runChat(context: UnitContext): Promise<PathRun[]> {
  const { run, unit } = context;
  const variant = run.config.variants[unit.arm.variant];
  const messages = buildMessages(variant.systemPrompt, unit.evalCase);
  const n = unit.arm.n;
  const request = { model: variant.model, messages, temperature: variant.temperature, seed: mixSeed(run.config.seed, unit.epoch, 0) };
  const estimate = await estimatePrompt(run, { ...request, n: 1, maxTokens: 1 }, countPromptTokens(messages));
  const prompt = estimate.tokens;
  const { budget: budgetConfig } = run.config;

  const useNative = n > 1 && run.nativeN.enabled && run.provider.supportsNativeN;
  if (useNative) {
    const policy = planPathBudget({ totalTokensPerCase: budgetConfig.totalTokensPerCase, perCaseMaxTokens: budgetConfig.perCaseMaxTokens, n, promptTokens: prompt, nativeN: true });
    const outcome = await callModel(context, { ...request, n, maxTokens: policy.maxTokensPerPath }, { path: 0, paths: n, promptEstimate: prompt, estimate });
    if (!(outcome.ok === false && outcome.nativeNRejected)) return nativePaths(outcome, n, policy.binding);
    if (run.nativeN.enabled) {
      run.nativeN.enabled = false;
      run.onEvent('upstream rejected native n; falling back to parallel calls for the rest of the run');
    }
  }
  const policy = planPathBudget({ totalTokensPerCase: budgetConfig.totalTokensPerCase, perCaseMaxTokens: budgetConfig.perCaseMaxTokens, n, promptTokens: prompt, nativeN: false });
  const paths = Array.from({ length: n }, (_, path) =>
    callModel(context, { ...request, seed: mixSeed(run.config.seed, unit.epoch, path), n: 1, maxTokens: policy.maxTokensPerPath }, { path, paths: 1, promptEstimate: prompt, estimate }).then((outcome) =>
      singlePath(outcome, path, policy.binding),
    ),
  );
  return Promise.all(paths);
}

function nativePaths(outcome: CallOutcome, n: number, binding: boolean): PathRun[] {
  if (!outcome.ok) return Array.from({ length: n }, (_, path) => failedPath(outcome, path, n));
  const total = outcome.result.usage.totalTokens;
  // Attempts of unknown outcome before the answer were booked too: they are the paths' spend.
  const share = total === undefined ? undefined : (total + outcome.unknownBooked) / n;
  return Array.from({ length: n }, (_, path) => choicePath(outcome.result, path, share, binding));
}

function singlePath(outcome: CallOutcome, path: number, binding: boolean): PathRun {
  if (!outcome.ok) return failedPath(outcome, path);
  const total = outcome.result.usage.totalTokens;
  return choicePath(outcome.result, 0, total === undefined ? undefined : total + outcome.unknownBooked, binding, path);
}

function choicePath(result: GenerateResult, index: number, tokens: number | undefined, binding: boolean, path = index): PathRun {
  const choice = result.choices[index];
  if (!choice) return { path, text: '', finishReason: 'error', tokens, error: `upstream returned ${result.choices.length} choices, expected more` };
  // A path cut off by a cap that B imposed ran out of budget; one cut by per_case_max_tokens
  // merely hit its length limit.
  const unified = choice.finishReason.unified === 'length' && binding ? 'budget_exhausted' : choice.finishReason.unified;
  return { path, text: choice.text, finishReason: unified, tokens, error: undefined };
}

function failedPath(outcome: Extract<CallOutcome, { ok: false }>, path: number, paths = 1): PathRun {
  // What attempts of unknown outcome booked is the path's spend; nothing booked: no tokens known.
  const tokens = outcome.unknownBooked > 0 ? outcome.unknownBooked / paths : undefined;
  return { path, text: '', finishReason: outcome.finish, tokens, error: outcome.error };
}

/** Distinct, reproducible per-(epoch, path) seeds that stay within a signed 32-bit int. */
function mixSeed(seed: number, epoch: number, path: number): number {
  let h = Math.imul(seed ^ 0x9e3779b9, 0x85ebca6b) ^ Math.imul(epoch + 1, 0xc2b2ae35) ^ Math.imul(path + 1, 0x27d4eb2f);
  h ^= h >>> 16;
  return (h >>> 0) % 2_147_483_647;
}
