/**
 * The verdict record. It keeps the seed's JSON shape (`candidate_id`, `baseline_id`,
 * `same_budget`, `bestofn_off`, `bestofn_on`, `verdict`, `reason`) and adds the intervals,
 * methods, seed and rounds that make it checkable. Bump VERDICT_SCHEMA_VERSION when a field
 * changes meaning.
 */
import type { ArmMetrics } from '../analysis/arm-metrics.js';
import type { Attribution } from '../analysis/attribution/attribute.js';

export const VERDICT_SCHEMA_VERSION = 1;

export type VerdictName = 'invalid' | 'regression' | 'real_evolution' | 'budget_growth' | 'budget_leakage' | 'inconclusive' | 'no_gain';

export type Interval = readonly [number, number];

export interface Check {
  name: string;
  passed: boolean;
  detail: string;
}

export interface VerdictRecord {
  schema_version: number;
  run_id: string;
  experiment: string;
  split: string;
  candidate_id: string;
  baseline_id: string;
  same_budget: {
    budget: number;
    n: 1;
    cases: number;
    baseline_pass: number;
    candidate_pass: number;
    delta: number;
    ci95: Interval;
    ci_percentile: Interval;
    /** Confidence of `ci95` (named after the seed; 0.95 unless gates.confidence says otherwise). */
    confidence: number;
    se_bootstrap: number;
    se_paired: number;
    se_clustered: number | null;
    mcnemar_p: number | null;
    baseline_pass_wilson: Interval;
    candidate_pass_wilson: Interval;
    baseline_tokens_per_success: number | null;
    candidate_tokens_per_success: number | null;
    tokens_per_success_growth: number | null;
    tokens_per_success_growth_ci95: Interval | null;
    total_tokens_ratio: number | null;
    p95_latency_ratio: number | null;
  } | null;
  bestofn_off: { n: 1; delta: number | null };
  bestofn_on: BestOfNRecord | null;
  /** Every N in best_of_n (bestofn_on is the largest). */
  bestofn: BestOfNRecord[];
  categories: Array<{ category: string; cases: number; baseline_pass: number; candidate_pass: number; delta: number; ci: Interval; confidence: number; mcnemar_p: number | null; worse: boolean }>;
  regression_set: { cases: number; baseline_pass: number; candidate_pass: number; delta: number; ci95: Interval; worse: boolean; lost_cases: string[] } | null;
  arms: ArmMetrics[];
  invariants: { over_budget_units: number; missing_arms: string[]; mismatched_arms: string[]; calls_missing_usage: number; units_missing_tokens: number; non_binding_arms: string[] };
  power: { observed_delta: number; sd_diff: number; cases_for_80_power: number | null; cases_now: number } | null;
  checks: Check[];
  /** Fake-evolution findings and their routed actions (DESIGN §6), when computed. */
  attribution?: Attribution;
  /** `gain_confidence`: the level of `same_budget.ci95` when a caller corrected it for multiple screens (evolve). */
  gates: { min_same_budget_gain: number; max_token_growth_ratio: number; max_latency_growth_ratio: number; bootstrap_rounds: number; confidence: number; gain_confidence?: number };
  method: { pairing: 'case'; interval: 'bca'; also: 'percentile'; rounds: number; seed: number; prng: 'xoshiro128**'; category_adjustment: 'bonferroni'; pass_at_k: 'unbiased (Chen et al. 2021)' };
  verdict: VerdictName;
  reason: string;
  created_at: string;
}

export interface BestOfNRecord {
  n: number;
  cases: number;
  baseline_selected: number;
  candidate_selected: number;
  delta: number;
  ci95: Interval;
  baseline_pass_at_n: number;
  candidate_pass_at_n: number;
  difference_in_differences: number | null;
  did_ci95: Interval | null;
  /** Σ candidate tokens / Σ baseline tokens at this n. */
  total_tokens_ratio: number | null;
  /** Candidate spend at n=N over its spend at n=1 (the seed's `bestofn_ratio`). */
  bestofn_ratio: number | null;
}
