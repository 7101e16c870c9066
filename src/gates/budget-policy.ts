/**
 * Budget-policy changes (seed §7: raising n from 1 to 8, retries from 1 to 3, enlarging
 * max_tokens "directly change the fairness of the experiment and must not be decided
 * silently by the agent"). A variant's production policy is its experiment config's B and
 * per_case_max_tokens, overridden by a `policy:` block in its skill's front matter; Best-of-N
 * is off (n = 1) and a task gets one attempt (retries = 1) unless declared. `retries` here are
 * task attempts, not the config's transport retries (`retries.max_attempts` re-sends a failed
 * HTTP request and does not change what a task may spend). The baseline's policy comes from
 * `--baseline-config` when given (a production config), else from the same experiment. Pure.
 */
import type { ExperimentConfig } from '../config/types.js';
import type { DeclaredPolicy } from './skill-file.js';

export interface BudgetPolicy {
  /** Paths per request in production (1 = Best-of-N off). */
  best_of_n: number;
  /** Attempts per task including the first. */
  retries: number;
  /** Per-path output cap (tokens). */
  max_tokens: number;
  /** B: tokens per case (tokens). */
  budget: number;
}

export interface PolicyChange {
  field: keyof BudgetPolicy;
  from: number;
  to: number;
}

export function effectivePolicy(config: ExperimentConfig, declared: DeclaredPolicy | undefined): BudgetPolicy {
  return {
    best_of_n: declared?.best_of_n ?? 1,
    retries: declared?.retries ?? 1,
    max_tokens: declared?.max_tokens ?? config.budget.perCaseMaxTokens,
    budget: declared?.budget ?? config.budget.totalTokensPerCase,
  };
}

/** Every field that differs. Decreases count too: any change to the budget rules is a human's call. */
export function policyChanges(baseline: BudgetPolicy, candidate: BudgetPolicy): PolicyChange[] {
  return (['best_of_n', 'retries', 'max_tokens', 'budget'] as const).filter((field) => baseline[field] !== candidate[field]).map((field) => ({ field, from: baseline[field], to: candidate[field] }));
}

export function describeChange(change: PolicyChange): string {
  const note = change.field === 'best_of_n' && change.from === 1 ? ' (Best-of-N switched on)' : change.to > change.from ? ' (more spend allowed)' : ' (less spend allowed)';
  return `${change.field} ${change.from} → ${change.to}${note}`;
}
