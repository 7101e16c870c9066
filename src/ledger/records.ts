/**
 * Ledger record schema. Bump LEDGER_SCHEMA_VERSION whenever a field changes meaning;
 * readers refuse versions they do not know instead of misreading them.
 */
import type { UnifiedFinishReason } from '../core/finish-reason.js';

export const LEDGER_SCHEMA_VERSION = 1;

/** `propose`: a proposer call of `isobudget evolve` (in the loop's own ledger). */
export type CallRole = 'generate' | 'judge' | 'select' | 'tool' | 'gateway' | 'propose';

/** One HTTP attempt (or in-process call) to a model. Seed fields plus what real usage needs. */
export interface CallRecord {
  schema_version: number;
  kind: 'call';
  run_id: string;
  case_id: string;
  /** e.g. `candidate_single`, `baseline_best_of_8`. */
  arm: string;
  /** n of the arm. */
  n: number;
  /** First path this call served; with native n the call serves paths path..path+choices-1. */
  path: number;
  /** Number of paths (choices) this call served. */
  paths: number;
  /** Epoch (repeat) index of the n=1 arms; 0 otherwise. */
  epoch: number;
  /** Which dataset the case came from (`regression` cases run on the n=1 arms only). */
  split: 'train' | 'val' | 'test' | 'regression';
  model: string;
  base_url: string;
  protocol: string;
  prompt_tokens: number | undefined;
  completion_tokens: number | undefined;
  total_tokens: number | undefined;
  cached_tokens: number | undefined;
  reasoning_tokens: number | undefined;
  /** True when the provider reported no usage (invariant 2). */
  usage_missing: boolean;
  /**
   * What this attempt cost at the run's price table (USD): uncached prompt × input + cached
   * prompt × cached_input + completion × output. null when the model has no price or the
   * usage is unknown — never 0 for unknown. Absent in ledgers written before prices existed.
   */
  cost_usd?: number | null;
  max_tokens: number;
  finish_reason: UnifiedFinishReason;
  finish_reason_raw: string | undefined;
  latency_ms: number;
  /** 1-based attempt number of this call. */
  attempt: number;
  /** HTTP status, or undefined for connection errors/timeouts. */
  status: number | undefined;
  role: CallRole;
  /** Error text for failed attempts (never contains secrets). */
  error: string | undefined;
  /** Whether the runner retried after this attempt. */
  retried: boolean;
  /** `native_n_rejected` when native n fell back to parallel calls, `outcome_unknown` (see call-intents.ts), etc. */
  note: string | undefined;
  ts: string;
  /** Id of the attempt, shared with its call intent (run calls; absent in gateway records and older ledgers). */
  call_id?: string | undefined;
  /** The attempt's reservation: prompt estimate + max_tokens × paths, the most it can bill (tokens). */
  reserved_tokens?: number | undefined;
  /**
   * What the attempt counts against B (tokens): its billed total, its reservation when the
   * usage is unknown (`usage_missing`: none came back, or it was not a count), 0 when the
   * request provably never reached the upstream or was refused. Absent in older ledgers.
   */
  booked_tokens?: number | undefined;
  /**
   * The factor the prompt reservation applied to our o200k count: 1 when the upstream bills
   * with that tokenizer, the learned (or seed) billed/counted ratio plus margin otherwise;
   * absent when the provider counted the prompt itself (`estimate_source`) or in older ledgers.
   */
  estimate_ratio?: number | undefined;
  /** Where the prompt reservation came from: `exact`, `provider_count` (count_tokens) or `learned_ratio`. */
  estimate_source?: 'exact' | 'provider_count' | 'learned_ratio' | undefined;
  /** The prompt tokens reserved for this call (tokens). */
  prompt_estimate?: number | undefined;
}

/** One tool call of an agent path (the trajectory the attribution reads). */
export interface ToolStep {
  /** 1-based model turn that asked for the call. */
  turn: number;
  tool: string;
  /** sha256 of the canonical JSON arguments (hex, first 16 chars): duplicates compare equal. */
  args_hash: string;
  /** Size of the result handed back to the model (bytes). */
  result_bytes: number;
  duration_ms: number;
  error: string | undefined;
  /** Same tool and arguments as an earlier step of this path that failed. */
  retry: boolean;
}

/** A judge's structured grade of one output. */
export interface JudgeGrade {
  /** Overall score in [0, 1] (the deciding dimension). */
  score: number;
  /** Per-dimension scores in [0, 1] (correctness, conciseness, format, tone, budget_friendliness). */
  dimensions: Record<string, number>;
  rationale: string;
  /** Set when the judge's reply was unusable or the call failed: the grade is then a failure. */
  error: string | undefined;
  /** Judge tokens billed for this grade (tokens). */
  tokens: number | undefined;
}

export interface PathOutcome {
  path: number;
  output: string;
  passed: boolean;
  score: number;
  finish_reason: UnifiedFinishReason;
  /** Tokens billed for this path's calls; with native n the call's usage is split evenly. */
  tokens: number | undefined;
  /** Tokens of the output text itself (the tokenizer's count), for length analyses. */
  output_tokens?: number | undefined;
  error: string | undefined;
  judge?: JudgeGrade | undefined;
  /** Agent paths: model turns taken and the tool calls made. */
  turns?: number | undefined;
  trajectory?: ToolStep[] | undefined;
}

/** One (case, arm, epoch) outcome. */
export interface ResultRecord {
  schema_version: number;
  kind: 'result';
  run_id: string;
  case_id: string;
  arm: string;
  variant: 'baseline' | 'candidate';
  n: number;
  epoch: number;
  split: 'train' | 'val' | 'test' | 'regression';
  category: string | undefined;
  /** Cluster key of the case (clustered standard errors, Miller 2024). */
  cluster?: string | undefined;
  /** The arm's product outcome: the selected path passed (n=1: the only path). */
  passed: boolean;
  /** Any path passed (pass@N oracle). */
  passed_any: boolean;
  /** Number of passing paths (for unbiased pass@k). */
  passes: number;
  /**
   * True when one ledger row stood for the unit's n paths with one outcome (a ledger written
   * by someone else): `passed` is the selected@n outcome, and `passes` / `passed_any` say
   * nothing about the single paths, so pass@1 and pass@N of its arm are unknown.
   */
  passes_unknown?: boolean;
  selected_path: number | undefined;
  judge_score: number | undefined;
  paths: PathOutcome[];
  prompt_tokens: number | undefined;
  completion_tokens: number | undefined;
  /** Σ total_tokens over every call of the case in this arm (tokens). */
  total_tokens: number | undefined;
  /**
   * Σ cost_usd over the calls total_tokens counts (USD); null when one of them has no price
   * or no usage. Absent in ledgers written before prices existed.
   */
  cost_usd?: number | null;
  /** Judge and selection tokens of this unit (tokens), counted toward B only with budget.include_judge. */
  judge_tokens?: number | undefined;
  /** Answered calls that lacked usage (their unit's totals are then unknown). */
  calls_missing_usage: number;
  /**
   * Attempts whose outcome is unknown (`note: outcome_unknown`: timed out, 5xx, reset or
   * unparseable after the request left), judging included: each may have been billed and is
   * booked at its reservation. Absent in older ledgers.
   */
  calls_outcome_unknown?: number;
  /**
   * Σ reservations of those attempts that count toward B (generation; judging with
   * budget.include_judge), included in prompt/completion/total_tokens as their worst case
   * (tokens). Absent in older ledgers.
   */
  outcome_unknown_tokens?: number;
  calls: number;
  /** Attempts that were retried. */
  retries: number;
  budget: number;
  /** Some path ended with budget_exhausted. */
  budget_exhausted: boolean;
  /** Billed spend exceeded B (an invariant broke upstream: the verdict becomes `invalid`). */
  over_budget: boolean;
  /** Wall time of the case in this arm (ms). */
  latency_ms: number;
  ts: string;
}

export type LedgerRecord = CallRecord | ResultRecord;
