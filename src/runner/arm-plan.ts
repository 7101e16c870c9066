/**
 * Describes each arm's budget before the run: the per-path cap it will get (an agent's: its
 * first turn's) and whether B binds (DESIGN §1, invariant 4: if B is not binding for an arm,
 * say so).
 */
import { countPromptTokens, countToolDefinitionTokens } from '../core/tokens.js';
import type { ArmPlan } from '../ledger/manifest.js';
import type { Provider } from '../providers/spec.js';
import { planPathBudget, promptEstimate } from '../budget/path-budget.js';
import type { RunInputs } from './inputs.js';
import { armsFor, buildMessages } from './plan.js';

/**
 * Whether B can end an agent path before max_turns does. Each turn's max_tokens is what is
 * left of the path's share ⌊B/n⌋ after its prompt, capped at per_case_max_tokens, and each
 * turn resends the conversation, which has grown by at least the earlier completions: a path
 * of T full turns bills at least T·prompt + cap·T(T+1)/2. Share below that: B binds (per
 * turn, late in a path — the first turn's cap says nothing). Tool results only add, so a
 * share above it is "not binding" only as far as the results stay short.
 */
export function agentPathMayExceed(share: number, firstPrompt: number, perCaseMaxTokens: number, maxTurns: number): boolean {
  return share < maxTurns * firstPrompt + (perCaseMaxTokens * maxTurns * (maxTurns + 1)) / 2;
}

export function describeArms(inputs: RunInputs, provider: Provider): { arms: ArmPlan[]; warnings: string[] } {
  const { config } = inputs;
  const exact = provider.protocol === 'sim' || inputs.promptExact === true;
  const arms: ArmPlan[] = [];
  const warnings: string[] = [];
  // An agent's first prompt also carries its tool definitions.
  const toolTokens = config.executor.type === 'agent' ? countToolDefinitionTokens(config.executor.tools) : 0;
  for (const spec of armsFor(config.budget.bestOfN).filter((arm) => inputs.variants === undefined || inputs.variants.includes(arm.variant))) {
    const variant = config.variants[spec.variant];
    // An agent path is its own conversation: its n paths are always n separate loops.
    const nMode = spec.n > 1 && config.nMode === 'native' && provider.supportsNativeN && config.executor.type !== 'agent' ? 'native' : 'parallel';
    let min = Infinity;
    let max = -Infinity;
    let bindingCases = 0;
    for (const evalCase of inputs.cases) {
      const prompt = promptEstimate(countPromptTokens(buildMessages(variant.systemPrompt, evalCase)) + toolTokens, exact);
      const policy = planPathBudget({ totalTokensPerCase: config.budget.totalTokensPerCase, perCaseMaxTokens: config.budget.perCaseMaxTokens, n: spec.n, promptTokens: prompt, nativeN: nMode === 'native' });
      min = Math.min(min, policy.maxTokensPerPath);
      max = Math.max(max, policy.maxTokensPerPath);
      const binds = config.executor.type === 'agent' ? agentPathMayExceed(Math.floor(config.budget.totalTokensPerCase / spec.n), prompt, config.budget.perCaseMaxTokens, config.executor.maxTurns) : policy.binding;
      if (binds) bindingCases += 1;
    }
    const binding = bindingCases * 2 > inputs.cases.length;
    arms.push({ arm: spec.arm, variant: spec.variant, n: spec.n, nMode, binding, minMaxTokensPerPath: Number.isFinite(min) ? min : 0, maxMaxTokensPerPath: Number.isFinite(max) ? max : 0 });
    if (!binding) {
      const share = Math.floor(config.budget.totalTokensPerCase / spec.n);
      warnings.push(config.executor.type === 'agent'
        ? `B=${config.budget.totalTokensPerCase} is not binding for ${spec.arm} (n=${spec.n}): a path of max_turns=${config.executor.maxTurns} full turns fits its share ⌊B/n⌋=${share} (unless tool results are long); each turn is capped at per_case_max_tokens=${config.budget.perCaseMaxTokens}; the arms are capped alike but not spend-aligned`
        : config.executor.type === 'command'
          // The gateway clamps each of the agent's calls to what its path's key has left; the
          // config's per_case_max_tokens never reaches those requests.
          ? `B=${config.budget.totalTokensPerCase} may not bind for ${spec.arm} (n=${spec.n}): the command agent's calls go out through the gateway with max_tokens clamped to what is left of the path's ⌊B/n⌋=${share}-token key, less the prompt (not per_case_max_tokens=${config.budget.perCaseMaxTokens}, which does not apply to them); a path of few short calls stays under its share, so the arms are capped alike but not spend-aligned`
          : `B=${config.budget.totalTokensPerCase} is not binding for ${spec.arm} (n=${spec.n}): every path is capped at per_case_max_tokens=${config.budget.perCaseMaxTokens}; the arms are capped alike but not spend-aligned`);
    }
    if (min < 1) {
      warnings.push(`B=${config.budget.totalTokensPerCase} leaves no completion tokens for ${spec.arm} on some cases: those paths are recorded as budget_exhausted`);
    }
  }
  return { arms, warnings };
}
