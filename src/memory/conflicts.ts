/**
 * Conflict handling (seed §5: 冲突解决). New same-budget evidence either agrees with a record
 * (its weight is restored), contradicts it (its weight is cut, and a record cut below the
 * floor is frozen — "lower its weight or freeze it, rather than let the agent quote it at
 * random"), or only informs it. A skill whose test-split run regressed is frozen at once.
 * Records about one subject that point opposite ways are listed for a human. Pure.
 */
import { effectiveWeight } from './decay.js';
import type { MemoryPolicy } from './policy.js';
import type { Evidence, MemoryRecord, MemoryType } from './record.js';
import type { RunFacts } from './run-facts.js';
import { nextVersion } from './versioning.js';

export type Polarity = 'positive' | 'negative' | 'neutral';

const NEGATIVE_VERDICTS = new Set(['budget_leakage', 'no_gain', 'regression', 'do_not_promote']);
const POSITIVE_VERDICTS = new Set(['real_evolution', 'promote_to_skill']);

/** Does the record say "this works at the same budget" (positive) or "this does not" (negative)? */
export function polarity(record: Pick<MemoryRecord, 'type' | 'verdict'>): Polarity {
  if (record.type === 'skill' || record.type === 'skill_candidate') return 'positive';
  if (record.type === 'negative_pattern') return 'negative';
  if (POSITIVE_VERDICTS.has(record.verdict)) return 'positive';
  if (NEGATIVE_VERDICTS.has(record.verdict)) return 'negative';
  return 'neutral';
}

/** What a run with `verdict` means for a record of the given polarity. `invalid` and `inconclusive` runs prove nothing. */
export function effectOf(record: Pick<MemoryRecord, 'type' | 'verdict'>, verdict: string): Evidence['effect'] {
  const side = polarity(record);
  if (side === 'positive') {
    if (verdict === 'real_evolution') return 'confirms';
    return ['no_gain', 'budget_leakage', 'budget_growth', 'regression'].includes(verdict) ? 'contradicts' : 'neutral';
  }
  if (side === 'negative') {
    if (verdict === 'real_evolution') return 'contradicts';
    return ['budget_leakage', 'no_gain', 'regression'].includes(verdict) ? 'confirms' : 'neutral';
  }
  return 'neutral';
}

export function initialWeight(type: MemoryType, policy: MemoryPolicy): number {
  return type === 'learning' ? policy.learningWeight : 1;
}

export interface EvidenceOutcome {
  record: MemoryRecord;
  effect: Evidence['effect'];
  /** The record went from not frozen to frozen. */
  froze: boolean;
  /** Frozen because its latest test-split run regressed: a regression decision for a human. */
  regressionOnTest: boolean;
}

const signed = (value: number | null): string => (value === null ? 'n/a' : `${value >= 0 ? '+' : ''}${value.toFixed(3)}`);

export function describeRun(facts: RunFacts): string {
  return `${facts.run_id} (${facts.split}, ${facts.verdict}, n=1 delta ${signed(facts.same_budget_delta)})`;
}

/** The next version of `record` carrying the run as evidence, with weight and status updated. */
export function applyEvidence(record: MemoryRecord, facts: RunFacts, now: Date, policy: MemoryPolicy): EvidenceOutcome {
  const effect = effectOf(record, facts.verdict);
  const at = now.toISOString();
  const evidence: Evidence = { run_id: facts.run_id, split: facts.split, verdict: facts.verdict, same_budget_delta: facts.same_budget_delta, ci95: facts.ci95, bestofn_ratio: facts.bestofn_ratio, effect, at };
  const base = { evidence: [...record.evidence, evidence], run_ids: [...record.run_ids, facts.run_id] };
  if (effect === 'confirms') {
    const weight = initialWeight(record.type, policy);
    return { record: nextVersion(record, { ...base, weight, weight_at: at, confirmed_at: at }, `reconfirmed by ${describeRun(facts)}`, now), effect, froze: false, regressionOnTest: false };
  }
  if (effect === 'neutral') return { record: nextVersion(record, base, `evidence from ${describeRun(facts)}`, now), effect, froze: false, regressionOnTest: false };

  const before = effectiveWeight(record, now, policy);
  const weight = before * policy.contradictionPenalty;
  const regressionOnTest = polarity(record) === 'positive' && facts.verdict === 'regression' && facts.split === 'test';
  const freeze = record.status === 'active' && (regressionOnTest || weight < policy.freezeBelow);
  const why = regressionOnTest ? `its latest test-split run ${facts.run_id} is a regression` : `weight fell below ${policy.freezeBelow} after contradicting same-budget evidence`;
  const changelog = `contradicted by ${describeRun(facts)}: weight ${before.toFixed(2)} → ${weight.toFixed(2)}${freeze ? `; frozen (${why})` : ''}`;
  const status = freeze ? { status: 'frozen' as const, status_reason: `frozen: ${why}` } : {};
  return { record: nextVersion(record, { ...base, ...status, weight, weight_at: at }, changelog, now), effect, froze: freeze, regressionOnTest: regressionOnTest && freeze };
}

export interface Conflict {
  subject: string;
  positive: MemoryRecord[];
  negative: MemoryRecord[];
}

/** Subjects with live records pointing both ways (same pattern, opposite verdicts): a human must decide which holds. */
export function listConflicts(records: readonly MemoryRecord[]): Conflict[] {
  const bySubject = new Map<string, MemoryRecord[]>();
  for (const record of records) {
    if (record.status === 'retired') continue;
    const key = record.subject.trim().toLowerCase();
    bySubject.set(key, [...(bySubject.get(key) ?? []), record]);
  }
  const conflicts: Conflict[] = [];
  for (const group of bySubject.values()) {
    const positive = group.filter((r) => polarity(r) === 'positive');
    const negative = group.filter((r) => polarity(r) === 'negative');
    if (positive.length > 0 && negative.length > 0) conflicts.push({ subject: group[0]?.subject ?? '', positive, negative });
  }
  return conflicts.sort((a, b) => a.subject.localeCompare(b.subject));
}
