/**
 * A verdict becomes memory (seed §3/§5): `real_evolution` → `skill_candidate` (screened on
 * val, never on test); `budget_leakage` → `negative_pattern` ("depends on Best-of-N; no gain
 * at the same budget with n=1"); every other verdict is evidence on the candidate's records
 * (or, when there are none yet, a `learning` so nothing is lost). Pure: facts + snapshot in,
 * writes out.
 */
import { applyEvidence, describeRun, initialWeight } from './conflicts.js';
import { nextId, nextMemoryId } from './ids.js';
import { newRecord } from './new-record.js';
import type { MemoryPolicy } from './policy.js';
import type { Evidence, MemoryRecord, MemoryType } from './record.js';
import { cardFromFacts } from './review-card.js';
import type { RunFacts } from './run-facts.js';
import type { ReviewItem } from './store/records.js';
import type { RecordWrite } from './store/spec.js';
import { writeOf } from './versioning.js';

export const NEGATIVE_PATTERN = 'depends on Best-of-N; no gain at the same budget with n=1';

export interface IngestSnapshot {
  /** Every record, any status (ids must not be reused). */
  records: readonly MemoryRecord[];
  reviewIds: readonly string[];
}

export interface IngestPlan {
  writes: RecordWrite[];
  reviewItems: ReviewItem[];
  messages: string[];
}

const fmt = (value: number | null, digits = 3): string => (value === null ? 'n/a' : `${value >= 0 ? '+' : ''}${value.toFixed(digits)}`);

export function planIngest(facts: RunFacts, snapshot: IngestSnapshot, policy: MemoryPolicy, now: Date): IngestPlan {
  const plan: IngestPlan = { writes: [], reviewItems: [], messages: [] };
  const mine = snapshot.records.filter((r) => r.candidate_id === facts.candidate_id);
  const seen = mine.find((r) => r.run_ids.includes(facts.run_id));
  if (seen) {
    plan.messages.push(`run ${facts.run_id} is already in memory (${seen.memory_id}); nothing to do`);
    return plan;
  }
  const related = mine.filter((r) => r.status !== 'retired');
  const reviewIds = [...snapshot.reviewIds];
  for (const record of related) {
    const outcome = applyEvidence(record, facts, now, policy);
    let next = outcome.record;
    // A candidate re-run with edited text carries the new text (and its diff); an approved
    // skill's text changes only through review or rollback.
    if (record.type === 'skill_candidate' && facts.skill && next.skill && facts.skill.text !== next.skill.text) next = { ...next, skill: facts.skill, changelog: `${next.changelog}; skill text changed` };
    plan.writes.push(writeOf(record, next));
    plan.messages.push(`${record.memory_id} (${record.type}): ${next.changelog}`);
    if (outcome.regressionOnTest) {
      const reviewId = nextId('rev-', reviewIds, 4);
      reviewIds.push(reviewId);
      plan.reviewItems.push(regressionItem(reviewId, next, facts, now));
      plan.messages.push(`${record.memory_id} queued for a human regression decision as ${reviewId}`);
    }
  }

  const ids = snapshot.records.map((r) => r.memory_id);
  const create = (type: MemoryType, fields: Partial<MemoryRecord> & { n: number; changelog: string }): void => {
    const memoryId = nextMemoryId(facts.candidate_id, ids);
    ids.push(memoryId);
    const evidence: Evidence = { run_id: facts.run_id, split: facts.split, verdict: facts.verdict, same_budget_delta: facts.same_budget_delta, ci95: facts.ci95, bestofn_ratio: facts.bestofn_ratio, effect: 'confirms', at: now.toISOString() };
    const record = newRecord(memoryId, type, {
      source_run: facts.run_id, base_url: facts.base_url, model: facts.model, budget: facts.budget, verdict: facts.verdict,
      subject: facts.candidate_id, candidate_id: facts.candidate_id, baseline_id: facts.baseline_id, experiment: facts.experiment, split: facts.split,
      source: `${facts.split}_set_${facts.experiment}`, weight: initialWeight(type, policy),
      same_budget_delta: facts.same_budget_delta, same_budget_ci95: facts.ci95, bestofn_off_delta: facts.bestofn_off_delta,
      tokens_per_success_delta: facts.tokens_per_success_delta, bestofn_ratio: facts.bestofn_ratio,
      run_ids: [facts.run_id], evidence: [evidence], ...fields,
    }, now);
    plan.writes.push(writeOf(undefined, record));
    plan.messages.push(`${memoryId} (${type}) created from ${describeRun(facts)}`);
  };
  const has = (type: MemoryType): boolean => related.some((r) => r.type === type);

  let created = false;
  if (facts.verdict === 'real_evolution' && facts.split !== 'test' && !has('skill_candidate') && !has('skill')) {
    create('skill_candidate', { n: 1, disposition: 'promote_to_skill', skill: facts.skill, pattern: facts.skill?.description || null, reason: facts.reason, changelog: `skill candidate: same-budget n=1 gain on ${facts.split}` });
    created = true;
  }
  if (facts.verdict === 'budget_leakage' && !has('negative_pattern')) {
    const at = facts.bestofn_n ?? 1;
    const reason = `same-budget n=1 delta ${fmt(facts.same_budget_delta)} (95% CI ${facts.ci95 ? `[${fmt(facts.ci95[0])}, ${fmt(facts.ci95[1])}]` : 'n/a'}); at n=${at} delta ${fmt(facts.bestofn_delta)}`
      + `${facts.bestofn_ratio === null ? '' : ` spending ${facts.bestofn_ratio.toFixed(1)}× the n=1 tokens`} — works only with multi-path sampling: not a skill, do not chase this direction at n=1`;
    create('negative_pattern', { n: at, disposition: 'do_not_promote', pattern: NEGATIVE_PATTERN, reason, skill: facts.skill, changelog: `negative pattern: ${NEGATIVE_PATTERN}` });
    created = true;
  }
  if (!created && related.length === 0) {
    const note = facts.verdict === 'real_evolution' ? 'a gain seen on the test split; screen candidates on val, the test split is for the gate' : facts.reason;
    create('learning', { n: 1, disposition: 'evidence', title: `${facts.verdict} for ${facts.candidate_id} on ${facts.split}`, body: note, reason: facts.reason, skill: null, changelog: `evidence for ${facts.candidate_id} (no record yet)` });
  }
  return plan;
}

function regressionItem(reviewId: string, record: MemoryRecord, facts: RunFacts, now: Date): ReviewItem {
  const at = now.toISOString();
  return {
    review_id: reviewId, kind: 'regression', status: 'pending', memory_id: record.memory_id, memory_version: record.version, gate_id: null,
    reasons: [`regression decision: the latest test-split run ${facts.run_id} regressed`],
    card: cardFromFacts(`regression: ${record.type} ${record.memory_id} (${facts.candidate_id}) is frozen`, facts, {
      facts: ['approve = keep it out: roll back to the previous approved version, or retire it if there is none', 'reject = the regression is not real: reactivate it'],
    }),
    created_at: at, updated_at: at,
  };
}
