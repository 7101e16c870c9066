/**
 * The memory record (DESIGN §7, seed §5). Field names follow the seed's memory JSON
 * (`memory_id, type, source_run, base_url, budget, n, same_budget_delta, bestofn_off_delta,
 * tokens_per_success_delta, verdict, source`, and for negative patterns `pattern,
 * bestofn_ratio, reason`) so a record can be handed to an agent as-is. Bump
 * MEMORY_SCHEMA_VERSION when a field changes meaning.
 */
import type { Interval } from '../verdict/record.js';

export const MEMORY_SCHEMA_VERSION = 1;

export type MemoryType = 'learning' | 'skill_candidate' | 'skill' | 'negative_pattern';
export const MEMORY_TYPES: readonly MemoryType[] = ['learning', 'skill_candidate', 'skill', 'negative_pattern'];

export type MemoryStatus = 'active' | 'frozen' | 'retired';

/**
 * What the record says to the next round — the seed's memory-level verdict
 * (`promote_to_skill`, `do_not_promote`). `verdict` keeps the source run's verdict instead,
 * because that is the provenance a reviewer checks.
 */
export type Disposition = 'promote_to_skill' | 'do_not_promote' | 'evidence' | 'skill';

/** The six fields without which no record is stored (seed §5: 六个字段). */
export interface Provenance {
  /** run_id of the run the record came from. */
  source_run: string;
  base_url: string;
  model: string;
  /** B: tokens per case per arm (tokens). */
  budget: number;
  /** Paths per case the evidence was measured at (1 = Best-of-N off). */
  n: number;
  /** The source run's verdict (`real_evolution`, …), or a learning's own judgement. */
  verdict: string;
}

export const PROVENANCE_FIELDS = ['source_run', 'base_url', 'model', 'budget', 'n', 'verdict'] as const satisfies ReadonlyArray<keyof Provenance>;

/** One run's say on a record: it confirmed, contradicted, or merely informed it. */
export interface Evidence {
  run_id: string;
  split: string;
  verdict: string;
  same_budget_delta: number | null;
  ci95: Interval | null;
  bestofn_ratio: number | null;
  effect: 'confirms' | 'contradicts' | 'neutral';
  at: string;
}

export interface SkillText {
  /** Front matter `name`: the skill's domain; one active skill per name. */
  name: string;
  description: string;
  /** Front matter `version`, as written. */
  version: string;
  /** The whole skill file, front matter included (what the model saw). */
  text: string;
  file: string | null;
  /** The baseline's skill text, so "what changed" can always be shown as a diff. */
  baseline_id: string | null;
  baseline_text: string | null;
}

export interface Approval {
  reviewer: string;
  note: string | null;
  at: string;
  gate_id: string | null;
  review_id: string | null;
}

export interface MemoryRecord extends Provenance {
  schema_version: number;
  memory_id: string;
  type: MemoryType;
  /** 1, 2, …: every change is a new version; old ones stay readable. */
  version: number;
  /** Why this version exists. */
  changelog: string;
  status: MemoryStatus;
  status_reason: string | null;
  /** Weight (0–1) as of `weight_at`; read it through `effectiveWeight` (decay). */
  weight: number;
  weight_at: string;
  /** Last time new same-budget evidence agreed with the record. */
  confirmed_at: string;
  /** What the record is about: the candidate id, or a learning's pattern. Conflicts group by it. */
  subject: string;
  candidate_id: string | null;
  baseline_id: string | null;
  experiment: string | null;
  split: string | null;
  /** Where it came from, e.g. `val_set_date-parser` or `.learnings/retry-storm.md`. */
  source: string;
  same_budget_delta: number | null;
  same_budget_ci95: Interval | null;
  bestofn_off_delta: number | null;
  /** Relative change of tokens_per_success (−0.12 = 12% fewer tokens per success). */
  tokens_per_success_delta: number | null;
  /** Candidate spend at n=N over its spend at n=1. */
  bestofn_ratio: number | null;
  pattern: string | null;
  reason: string | null;
  disposition: Disposition;
  /** `rule`-level writes always wait for a human (seed §7). */
  level: 'note' | 'rule';
  title: string | null;
  /** A learning's Markdown text. */
  body: string | null;
  skill: SkillText | null;
  /** Every run that contributed, oldest first. */
  run_ids: string[];
  evidence: Evidence[];
  approvals: Approval[];
  created_at: string;
  updated_at: string;
}

export function isNegative(record: Pick<MemoryRecord, 'type'>): boolean {
  return record.type === 'negative_pattern';
}
