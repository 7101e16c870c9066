/**
 * Budget policy (DESIGN §1, invariant 1), pure.
 *
 * Per-path max_tokens = min(per_case_max_tokens, floor((B − prompt_overhead) / n)), where the
 * prompt is paid once when one call returns n choices (native `n`) and n times when n paths
 * are n calls. This is the seed's `per_path = total_budget // n`, made exact.
 */
import { PROMPT_OVERHEAD, SEED_RATIO } from '../estimate/billing-ratios.js';

export interface PathBudgetInput {
  /** B (tokens). */
  totalTokensPerCase: number;
  /** Cap on one path's completion (tokens). */
  perCaseMaxTokens: number;
  n: number;
  /** Prompt tokens of one call (tokens). */
  promptTokens: number;
  /** One call serves all n paths. */
  nativeN: boolean;
}

export interface PathBudget {
  /** max_tokens to send for each path (tokens); < 1 means the arm cannot run at all. */
  maxTokensPerPath: number;
  /** Prompt tokens billed for the whole arm (tokens). */
  promptOverhead: number;
  /** True when B, not per_case_max_tokens, sets the cap (the arms are spend-aligned). */
  binding: boolean;
  /** Worst-case spend of the arm on the case: overhead + n × maxTokensPerPath (tokens). */
  worstCaseSpend: number;
}

export function planPathBudget(input: PathBudgetInput): PathBudget {
  const { totalTokensPerCase: budget, perCaseMaxTokens, n, promptTokens, nativeN } = input;
  const promptOverhead = nativeN ? promptTokens : promptTokens * n;
  const perPath = Math.floor((budget - promptOverhead) / n);
  const maxTokensPerPath = Math.max(0, Math.min(perCaseMaxTokens, perPath));
  return {
    maxTokensPerPath,
    promptOverhead,
    binding: perPath < perCaseMaxTokens,
    worstCaseSpend: promptOverhead + n * maxTokensPerPath,
  };
}

/**
 * Prompt estimate before anything is learned about the upstream (plans, warnings, one-off
 * calls). On the simulator the tokenizer is the one that bills, so the count is exact; a real
 * upstream tokenizes differently and adds template tokens: the estimator's seed ratio and
 * overhead (src/estimate/). Runs learn a tighter ratio as calls settle (PromptEstimator).
 */
export function promptEstimate(countedTokens: number, exact: boolean): number {
  return exact ? countedTokens : Math.ceil(countedTokens * SEED_RATIO) + PROMPT_OVERHEAD;
}
