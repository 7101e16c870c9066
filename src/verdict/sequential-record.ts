/** The `sequential` section of a verdict record (issue 14): how a sequential run stopped and what it knew. */
import type { StopReason } from '../stats/sequential-screen.js';
import type { Interval } from '../stats/interval.js';

export interface SequentialComparisonRecord {
  /** n of the compared arms (1, or the largest Best-of-N). */
  n: number;
  /** Point estimate of the pass-rate delta over the cases read. */
  delta: number;
  /** Anytime-valid two-sided CS of the delta at `method.confidence`, running over the looks. */
  cs: Interval;
  /** Anytime-valid one-sided lower bound at `method.gain_confidence`. */
  gain_bound: number;
  /** Anytime-valid one-sided upper bound at `method.futility_confidence`. */
  futility_bound: number;
  /** CS above 0, gain bound ≥ min_same_budget_gain and delta ≥ min_same_budget_gain. */
  decided_gain: boolean;
  /** Futility bound below min_same_budget_gain: this comparison cannot reach the minimum gain. */
  futile: boolean;
  /** CS below 0. */
  decided_worse: boolean;
}

export interface SequentialLookRecord {
  /** Cases read at this look. */
  cases: number;
  delta: number;
  cs: Interval;
  gain_bound: number;
  futility_bound: number;
  decision: StopReason | 'continue';
}

export interface SequentialRecord {
  method: {
    interval: 'betting confidence sequence';
    reference: string;
    bets: string;
    /** Two-sided confidence of `cs` (the gates' confidence). */
    confidence: number;
    gain_confidence: number;
    futility_confidence: number;
  };
  look_every: number;
  min_cases: number;
  order_seed: number;
  /** Cases of the screened split. */
  planned_cases: number;
  /** Cases read when the run stopped: the cases every number of this verdict is computed on (cases). */
  stopped_at: number;
  /** Why: `efficacy`, `futility`, `leakage`, `exhausted` (the whole split ran), or `incomplete` (interrupted before any stop). */
  stop_reason: StopReason | 'incomplete';
  /** Screened cases with at least one result, those in flight at the stop included (cases). */
  cases_started: number;
  n1: SequentialComparisonRecord;
  bestofn: SequentialComparisonRecord | null;
  looks: SequentialLookRecord[];
  /** Σ billed tokens of every result recorded, in-flight cases and the regression set included (tokens). */
  tokens_spent: number;
  /** The whole split, estimated from the spend per case so far, plus the regression set (tokens). */
  tokens_full_split_estimate: number;
  /** tokens_spent ÷ tokens_full_split_estimate. */
  tokens_fraction: number | null;
  /** Results whose usage was unknown (not in tokens_spent). */
  tokens_unknown_results: number;
  /** The bootstrap intervals elsewhere in this record assume a fixed case count: they are not valid under optional stopping. */
  fixed_sample_intervals_valid: false;
}
