/**
 * The verdict record. It keeps the seed's JSON shape (`candidate_id`, `baseline_id`,
 * `same_budget`, `bestofn_off`, `bestofn_on`, `verdict`, `reason`) and adds the intervals,
 * methods, seed and rounds that make it checkable. Bump VERDICT_SCHEMA_VERSION when a field
 * changes meaning.
 */
import type { ArmMetrics } from '../analysis/arm-metrics.js';
import type { Attribution } from '../analysis/attribution/attribute.js';
import type { CiMethod } from '../analysis/delta-interval.js';
import type { SequentialRecord } from './sequential-record.js';

export const VERDICT_SCHEMA_VERSION = 1;

export type VerdictName = 'invalid' | 'regression' | 'real_evolution' | 'budget_growth' | 'budget_leakage' | 'inconclusive' | 'no_gain';

export type { Interval } from '../stats/interval.js';
import type { Interval } from '../stats/interval.js';

/** Where B came from: the run's config, `analyze --ledger --budget`, the ledger's rows, or nowhere. */
export type BudgetSource = 'config' | 'flag' | 'ledger' | 'unknown';

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
  /** Set for a run of some cases of its split (`--limit`, `--cases`, `--sample`): the verdict holds for `cases` of `of` cases. */
  partial?: { selection: string; cases: number; of: number };
  candidate_id: string;
  baseline_id: string;
  same_budget: {
    /** B (tokens per case); null when unknown — then no same-budget claim is made. */
    budget: number | null;
    budget_source: BudgetSource;
    n: 1;
    cases: number;
    baseline_pass: number;
    candidate_pass: number;
    delta: number;
    /** null when undefined (too few cases): never NaN. */
    ci95: Interval | null;
    ci_percentile: Interval | null;
    /** Confidence of `ci95` (named after the seed; 0.95 unless gates.confidence says otherwise). */
    confidence: number;
    /**
     * How `ci95` was computed: `tango-score` (Tango 1998 score interval, pass/fail outcomes),
     * `tango-score-clustered` (the same on counts ÷ design effect, t_{G−1}), `bca-bootstrap`
     * (fractional outcomes), `cluster-bootstrap` (BCa over clusters).
     */
    ci_method: CiMethod;
    /** Var_clustered / Var_iid of the delta (≥ 1) when the cases carry a cluster field; null otherwise. */
    design_effect: number | null;
    /** Clusters the cases fall in; null without a cluster field. */
    clusters: number | null;
    se_bootstrap: number | null;
    se_paired: number | null;
    se_clustered: number | null;
    mcnemar_p: number | null;
    baseline_pass_wilson: Interval;
    candidate_pass_wilson: Interval;
    baseline_tokens_per_success: number | null;
    candidate_tokens_per_success: number | null;
    tokens_per_success_growth: number | null;
    /** Decides the tokens_per_success gate: within when its upper bound ≤ max, over when its lower bound > max. */
    tokens_per_success_growth_ci95: Interval | null;
    /** `bca-bootstrap`, or `cluster-bootstrap` with clusters; null when tokens are unknown. */
    tokens_per_success_growth_ci_method: CiMethod | null;
    total_tokens_ratio: number | null;
    p95_latency_ratio: number | null;
  } | null;
  bestofn_off: { n: 1; delta: number | null };
  bestofn_on: BestOfNRecord | null;
  /** Every N in best_of_n (bestofn_on is the largest). */
  bestofn: BestOfNRecord[];
  categories: Array<{ category: string; cases: number; baseline_pass: number; candidate_pass: number; delta: number; ci: Interval | null; ci_method: CiMethod; confidence: number; mcnemar_p: number | null; worse: boolean }>;
  regression_set: { cases: number; baseline_pass: number; candidate_pass: number; delta: number; ci95: Interval | null; ci_method: CiMethod; worse: boolean; lost_cases: string[] } | null;
  arms: ArmMetrics[];
  invariants: {
    over_budget_units: number;
    missing_arms: string[];
    mismatched_arms: string[];
    calls_missing_usage: number;
    units_missing_tokens: number;
    /** Attempts of unknown outcome (they may have been billed), booked at their reservations. Absent in older records. */
    calls_outcome_unknown?: number;
    /** Σ those reservations counted in the units' token totals (tokens). Absent in older records. */
    outcome_unknown_tokens?: number;
    non_binding_arms: string[];
    /** Per arm: paths that ended in a provider error, a scorer error or a timeout (gates.max_error_rate). */
    arm_errors: ArmErrorRecord[];
  };
  power: {
    observed_delta: number;
    /** SD of per-case differences; null when undefined (one case). */
    sd_diff: number | null;
    cases_for_80_power: number | null;
    cases_now: number;
    /** The n=1 gain the power is computed for: the observed one, or min_same_budget_gain when there are too few cases. */
    target_delta: number;
    /** True when sd_diff was unusable and the largest SD a pass/fail difference can have (1) was assumed. */
    sd_assumed: boolean;
  } | null;
  checks: Check[];
  /** Fake-evolution findings and their routed actions (DESIGN §6), when computed. */
  attribution?: Attribution;
  /** How a sequential screening run stopped (issue 14); absent for a fixed-size run. */
  sequential?: SequentialRecord;
  /** `gain_confidence`: the level of `same_budget.ci95` when a caller corrected it for multiple screens (evolve). */
  gates: { min_same_budget_gain: number; max_token_growth_ratio: number; max_latency_growth_ratio: number; bootstrap_rounds: number; confidence: number; max_error_rate: number; gain_confidence?: number };
  /**
   * `interval`/`also`: the bootstrap's intervals (fractional outcomes, ratios); `pass_fail`: the
   * interval of 0/1 deltas. Each interval's own method is in its `ci_method` field.
   */
  method: { pairing: 'case'; interval: 'bca'; also: 'percentile'; pass_fail: 'tango-score (Tango 1998) with exact McNemar'; rounds: number; seed: number; prng: 'xoshiro128**'; category_adjustment: 'bonferroni'; pass_at_k: 'unbiased (Chen et al. 2021)' };
  verdict: VerdictName;
  reason: string;
  created_at: string;
}

export interface ArmErrorRecord {
  arm: string;
  /** Paths recorded (0: the ledger has no per-path outcomes, e.g. the seed format). */
  paths: number;
  errors: number;
  provider_errors: number;
  scorer_errors: number;
  timeouts: number;
  /** errors / paths (0 when paths is 0). */
  error_rate: number;
  /** The first error message, quoted and cut to 200 characters; null when none. */
  first_error: string | null;
}

export interface BestOfNRecord {
  n: number;
  cases: number;
  baseline_selected: number;
  candidate_selected: number;
  delta: number;
  /** null when undefined (too few cases). */
  ci95: Interval | null;
  ci_method: CiMethod;
  /** null: the arm's single paths are unknown (a ledger row stood for n paths). */
  baseline_pass_at_n: number | null;
  candidate_pass_at_n: number | null;
  difference_in_differences: number | null;
  did_ci95: Interval | null;
  did_ci_method: CiMethod | null;
  /** Σ candidate tokens / Σ baseline tokens at this n. */
  total_tokens_ratio: number | null;
  /** Candidate spend at n=N over its spend at n=1 (the seed's `bestofn_ratio`). */
  bestofn_ratio: number | null;
  /** How the arm picked its path (`oracle`: selected@N is pass@N); absent for ledgers and older runs. */
  selector?: string;
}
