/**
 * What the proposer is reminded of each round, pure, in the article's order: negative
 * patterns first (stored "more conspicuously", so the generator does not waste iterations in
 * the same direction), then the active skills and candidates of this skill, then what this
 * loop's earlier rounds tried, with their verdicts. Directions are the lines each change added
 * (its diff against its baseline), which is also what the repeat checks compare.
 */
import { retrieve } from '../memory/retrieval.js';
import type { MemoryPolicy } from '../memory/policy.js';
import type { MemoryRecord } from '../memory/record.js';
import { unifiedDiff } from '../memory/unified-diff.js';
import { addedLines } from './direction.js';
import type { LineageEntry } from './types.js';

export interface RecalledPattern {
  memoryId: string;
  pattern: string;
  reason: string;
  verdict: string;
  /** Paths per case the gain appeared at (the n of the Best-of-N arm). */
  n: number;
  /** Candidate spend at n=N over its n=1 spend. */
  bestofnRatio: number | null;
  /** The lines the leaking change added: its direction. */
  direction: string[];
}

export interface RecalledSkill {
  memoryId: string;
  type: 'skill' | 'skill_candidate';
  candidateId: string;
  version: string;
  sameBudgetDelta: number | null;
  verdict: string;
  direction: string[];
}

export interface Recall {
  negatives: RecalledPattern[];
  skills: RecalledSkill[];
  tried: LineageEntry[];
}

export function recall(records: readonly MemoryRecord[], skillName: string, lineage: readonly LineageEntry[], options: { now: Date; policy: MemoryPolicy }): Recall {
  // Negative patterns first, by weight — retrieval's own order.
  const live = retrieve(records, { now: options.now, policy: options.policy }).map((r) => r.record).filter((r) => r.skill?.name === skillName);
  const negatives: RecalledPattern[] = live.filter((r) => r.type === 'negative_pattern').map((r) => ({
    memoryId: r.memory_id,
    pattern: r.pattern ?? '',
    reason: r.reason ?? '',
    verdict: r.verdict,
    n: r.n,
    bestofnRatio: r.bestofn_ratio,
    direction: directionOf(r),
  }));
  const skills: RecalledSkill[] = live
    .filter((r): r is MemoryRecord & { type: 'skill' | 'skill_candidate' } => r.type === 'skill' || r.type === 'skill_candidate')
    .map((r) => ({ memoryId: r.memory_id, type: r.type, candidateId: r.candidate_id ?? r.subject, version: r.skill?.version ?? '?', sameBudgetDelta: r.same_budget_delta, verdict: r.verdict, direction: directionOf(r) }));
  return { negatives, skills, tried: [...lineage] };
}

/** The lines a recorded change added to its baseline's text. */
export function directionOf(record: Pick<MemoryRecord, 'skill'>): string[] {
  const skill = record.skill;
  if (!skill || skill.baseline_text === null) return [];
  return addedLines(unifiedDiff(skill.baseline_text, skill.text, { from: 'baseline', to: 'candidate' }));
}
