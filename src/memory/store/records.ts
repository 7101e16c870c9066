/**
 * What the governance store keeps besides memory records: gate runs and their layer
 * results, test-split uses, review items and decisions. Plain data, shared by gates/,
 * review/ and the store implementations.
 */

export type GateStatus = 'running' | 'failed' | 'awaiting_review' | 'passed' | 'rejected';
export type LayerStatus = 'passed' | 'failed' | 'pending' | 'skipped';
export type LayerName = 'format' | 'regression' | 'significance' | 'budget' | 'human';
export const LAYER_NAMES: readonly LayerName[] = ['format', 'regression', 'significance', 'budget', 'human'];

export interface GateRun {
  gate_id: string;
  /** The experiment config whose candidate variant is the candidate. */
  config_path: string;
  baseline_config_path: string | null;
  candidate_id: string | null;
  /** The skill_candidate record screened on val. */
  memory_id: string | null;
  status: GateStatus;
  /** Reasons a human must decide (budget policy change, new domain, …). */
  needs_human: string[];
  test_run_id: string | null;
  review_id: string | null;
  created_at: string;
  updated_at: string;
}

export interface GateLayerResult {
  gate_id: string;
  layer: 1 | 2 | 3 | 4 | 5;
  name: LayerName;
  status: LayerStatus;
  /** One line a person reads. */
  summary: string;
  /** The numbers and lists behind the summary. */
  details: Record<string, unknown>;
  recorded_at: string;
}

/** One run of a test split: how often a test set has been looked at (eval drift, seed §4). */
export interface TestSplitUse {
  dataset_sha256: string;
  dataset_path: string | null;
  candidate_id: string | null;
  gate_id: string | null;
  run_id: string;
  used_at: string;
}

export type ReviewKind = 'promotion' | 'regression' | 'memory_write';
export type ReviewStatus = 'pending' | 'deferred' | 'approved' | 'rejected';
export type Decision = 'approve' | 'reject' | 'defer';

/** The compact card a reviewer sees; captured when the item is queued. */
export interface ReviewCard {
  title: string;
  /** `what changed` as a unified diff ('' when nothing textual changed). */
  diff: string;
  same_budget: { delta: number; ci95: readonly [number, number]; cases: number; split: string } | null;
  tokens_per_success: { baseline: number | null; candidate: number | null; growth: number | null } | null;
  p95_latency_ratio: number | null;
  bestofn: { n: number; delta: number; total_tokens_ratio: number | null } | null;
  /** Attribution findings carried by the verdict, if any. */
  attribution: string[];
  /** Budget-policy changes, e.g. `best_of_n 1 → 8`. */
  policy_changes: string[];
  facts: string[];
}

export interface ReviewItem {
  review_id: string;
  kind: ReviewKind;
  status: ReviewStatus;
  memory_id: string;
  /** The record version the card describes (later evidence may have moved the record on; the card says which it saw). */
  memory_version: number;
  gate_id: string | null;
  /** Why a human is needed. */
  reasons: string[];
  card: ReviewCard;
  created_at: string;
  updated_at: string;
}

export interface ReviewDecision {
  review_id: string;
  decision: Decision;
  reviewer: string;
  note: string | null;
  decided_at: string;
}
