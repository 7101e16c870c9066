/**
 * The evolution loop's records: the diagnosis of a round, a proposal and its checks, the
 * lineage entry every proposal becomes, and the loop's fixed settings. Field names of the
 * lineage entry are the contract (`version`, `parent`, `round`, `diff`, `summary`,
 * `status`, `verdict`, `n1_delta`, `ci95`, `tokens_per_success_ratio`, `proposer_tokens`,
 * `screen_tokens`, `run_dir`, `memory_id`).
 */
import type { EvolveScreening, SequentialConfig } from '../config/types.js';
import type { StopReason as SequentialStopReason } from '../stats/sequential-screen.js';
import type { Interval, VerdictName } from '../verdict/record.js';

export const EVOLVE_SCHEMA_VERSION = 1;

/** One version of the skill the loop holds: the incumbent or a candidate. */
export interface SkillVersion {
  /** Front matter `version`. */
  version: string;
  /** The whole skill file (front matter included): what the model sees. */
  text: string;
  /** Variant id in runs and memory, e.g. `date-parser-v3.ev-20260601-101500-ab12`. */
  variantId: string;
}

/** Why a failed case failed, as far as the ledger can tell. */
export type FailureReason =
  | 'wrong_answer'
  | 'length'
  | 'budget_exhausted'
  | 'call_error'
  | 'scorer_error'
  | 'tool_error'
  | 'tool_retry'
  | `judge:${string}`;

export interface FailureMode {
  category: string;
  reason: FailureReason;
  /** Failed cases in this mode. */
  failures: number;
  /** Cases of the category (the mode's denominator). */
  cases: number;
  caseIds: string[];
}

/** One failure shown to the proposer: always a train case or a production failure assigned to train. */
export interface FailureExample {
  case_id: string;
  source: 'train' | 'production';
  category: string;
  input: string;
  expected: string;
  output: string;
  reason: FailureReason;
  finish_reason: string;
  /** Production failures: the budget and n they failed at. */
  budget?: number;
  n?: number;
}

export interface Diagnosis {
  schema_version: number;
  round: number;
  incumbent_version: string;
  /** Run directory of the train run, relative to the loop directory. */
  run_dir: string;
  cases: number;
  passed: number;
  pass_rate: number;
  modes: FailureMode[];
  examples: FailureExample[];
  /** Production failures given with `--failures` that were shown (train-side only) and left out. */
  production: { shown: number; not_train: number; duplicates: number } | null;
}

export type LineageStatus = 'accepted' | 'rejected' | 'dropped';

export interface LineageEntry {
  /** The proposal's front matter version; null when it had none that parsed. */
  version: string | null;
  /** Version of the incumbent it edits. */
  parent: string;
  round: number;
  /** 1-based slot in the round's request. */
  slot: number;
  /** The unified diff as proposed (after its repair, if it had one). */
  diff: string;
  summary: string;
  status: LineageStatus;
  /** Why it was dropped, rejected or accepted, in one line. */
  reason: string;
  /** Set when the first version failed a check and the repair was asked for. */
  repaired: boolean;
  verdict: VerdictName | null;
  n1_delta: number | null;
  /**
   * Interval of the n=1 delta at `confidence` (the loop's corrected level): a sequential
   * screen's anytime-valid confidence sequence, a fixed screen's bootstrap interval.
   */
  ci95: Interval | null;
  confidence: number | null;
  /** How the candidate was screened; null when it was not screened. */
  screening: EvolveScreening | null;
  /** A sequential screen: the val cases its decision read (cases); a fixed screen: null. */
  stopped_at: number | null;
  /** A sequential screen: why it stopped (`efficacy`, `futility`, `leakage`, `exhausted`); a fixed screen: null. */
  stop_reason: SequentialStopReason | 'incomplete' | null;
  /** A sequential screen: what the whole split would have cost, from its spend per case (tokens); a fixed screen: null. */
  tokens_full_split_estimate: number | null;
  tokens_per_success_ratio: number | null;
  /** This proposal's share of the proposer calls (tokens). */
  proposer_tokens: number;
  /** Every token of its screening run (tokens). */
  screen_tokens: number;
  /** Screening run directory, relative to the loop directory. */
  run_dir: string | null;
  memory_id: string | null;
  candidate_id: string | null;
  /** n=1 pass rates of the screen (val), with Wilson intervals at the verdict's confidence. */
  baseline_pass: number | null;
  baseline_pass_ci: Interval | null;
  candidate_pass: number | null;
  candidate_pass_ci: Interval | null;
}

/** The loop's settings, fixed when it starts (a resume keeps them). */
export interface EvolveSettings {
  rounds: number;
  candidatesPerRound: number;
  /** Cap on every token the loop spends (tokens); null: none. */
  budgetTokens: number | null;
  failuresPerPrompt: number;
  maxSkillGrowth: number;
  stopAfterNoGain: number;
  proposer: string;
  proposerMaxTokens: number;
  proposerTemperature: number;
  /** Family-wise error rate of the loop's acceptances (1 − gates.confidence). */
  familyAlpha: number;
  /** Screens the loop may run: rounds × candidates_per_round (the Bonferroni m). */
  plannedScreens: number;
  /** Confidence of each screen's gain interval: 1 − familyAlpha / plannedScreens. */
  screenConfidence: number;
  /** Bootstrap rounds of each screen's analysis (at least gates.bootstrap_rounds; see decide.ts). */
  screenBootstrapRounds: number;
  /** How candidates are screened (a loop started before sequential screening existed: `fixed`). */
  screening: EvolveScreening;
  /**
   * The sequential test of every screen (`screening: sequential`), its `confidence` — the
   * anytime-valid CS whose lower end must clear 0 — at `screenConfidence`; null for fixed screens.
   */
  sequential: SequentialConfig | null;
}
