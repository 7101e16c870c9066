/**
 * A reviewer's choice → the changes it makes, as one ChangeSet (decision, item status,
 * memory versions, gate layer 5 and gate status commit together or not at all). Pure.
 *
 * promotion:    approve → the candidate becomes (a version of) the skill; reject → retired; defer → stays queued.
 * regression:   approve → keep it out: a skill rolls back to its previous approved version, anything else
 *               (or a skill with none) is retired; reject → reactivate.
 * memory_write: approve → the rule becomes active; reject → retired.
 */
import { IsobudgetError } from '../core/errors.js';
import { promoteCandidate } from '../memory/promote.js';
import type { Approval, MemoryRecord } from '../memory/record.js';
import { planRollback, rollbackTarget } from '../memory/rollback.js';
import type { Decision, GateLayerResult, GateRun, ReviewItem } from '../memory/store/records.js';
import type { ChangeSet, StoredVersion } from '../memory/store/spec.js';
import { nextVersion, writeOf } from '../memory/versioning.js';

export interface DecisionInput {
  decision: Decision;
  reviewer: string;
  note: string | null;
}

export interface DecisionContext {
  records: readonly MemoryRecord[];
  /** Every version of the item's record (regression rollbacks need them). */
  versions: readonly StoredVersion[];
  gate: GateRun | undefined;
  now: Date;
}

export interface PlannedDecision {
  changes: ChangeSet;
  message: string;
}

const STATUS = { approve: 'approved', reject: 'rejected', defer: 'deferred' } as const;

/** Layer 5 and the gate's status after a human (or --auto-confirm) decided. */
export function humanLayer(gate: GateRun, decision: 'approve' | 'reject', approval: Approval, reasons: readonly string[], now: Date): Pick<ChangeSet, 'gates' | 'layers'> {
  const at = now.toISOString();
  const layer: GateLayerResult = {
    gate_id: gate.gate_id, layer: 5, name: 'human', status: decision === 'approve' ? 'passed' : 'failed',
    summary: `${decision === 'approve' ? 'approved' : 'rejected'} by ${approval.reviewer} at ${at}${approval.note ? `: ${approval.note}` : ''}`,
    details: { reviewer: approval.reviewer, note: approval.note, decided_at: at, review_id: approval.review_id, reasons },
    recorded_at: at,
  };
  return { gates: [{ gate: { ...gate, status: decision === 'approve' ? 'passed' : 'rejected', updated_at: at }, expected: gate.status }], layers: [layer] };
}

export function planDecision(item: ReviewItem, input: DecisionInput, context: DecisionContext): PlannedDecision {
  if (item.status !== 'pending' && item.status !== 'deferred') {
    throw new IsobudgetError('review_decided', `${item.review_id} was already ${item.status}`, { hint: '`isobudget review --all` lists past decisions' });
  }
  const { now } = context;
  const at = now.toISOString();
  const changes: ChangeSet = {
    reviewItems: [{ item: { ...item, status: STATUS[input.decision], updated_at: at }, expected: item.status }],
    decisions: [{ review_id: item.review_id, decision: input.decision, reviewer: input.reviewer, note: input.note, decided_at: at }],
  };
  const by = `${input.reviewer}${input.note ? `: ${input.note}` : ''}`;
  if (input.decision === 'defer') return { changes, message: `${item.review_id} deferred by ${by}` };

  const record = context.records.find((r) => r.memory_id === item.memory_id);
  if (!record) throw new IsobudgetError('not_found', `${item.review_id}: memory record ${item.memory_id} not found`);
  const approval: Approval = { reviewer: input.reviewer, note: input.note, at, gate_id: item.gate_id, review_id: item.review_id };
  const approve = input.decision === 'approve';

  if (item.kind === 'promotion') {
    if (context.gate) Object.assign(changes, humanLayer(context.gate, input.decision, approval, item.reasons, now));
    if (approve) {
      const promotion = promoteCandidate(record, context.records, approval, now);
      changes.records = promotion.writes;
      return { changes, message: `${item.review_id} approved by ${by} — ${promotion.message}` };
    }
    const retired = nextVersion(record, { status: 'retired', status_reason: `rejected in review ${item.review_id} by ${by}` }, `rejected in review ${item.review_id} by ${by}`, now);
    changes.records = [writeOf(record, retired)];
    return { changes, message: `${item.review_id} rejected by ${by} — ${record.memory_id} retired` };
  }

  if (item.kind === 'regression') {
    if (approve) {
      // Only a skill has earlier approved texts to return to; anything else is simply retired.
      if (record.type === 'skill' && rollbackTarget(context.versions)) {
        const rollback = planRollback(context.versions, now, { by: input.reviewer, note: input.note ?? `regression confirmed in ${item.review_id}` });
        changes.records = [rollback.write];
        return { changes, message: `${item.review_id} approved by ${by} — ${rollback.message}` };
      }
      const retired = nextVersion(record, { status: 'retired', status_reason: `regression confirmed in ${item.review_id} by ${by}` }, `regression confirmed in ${item.review_id} by ${by}; no earlier approved version, retired`, now);
      changes.records = [writeOf(record, retired)];
      return { changes, message: `${item.review_id} approved by ${by} — ${record.memory_id} retired (no earlier approved version)` };
    }
    const active = nextVersion(record, { status: 'active', status_reason: null, approvals: [...record.approvals, approval] }, `regression judged not real in ${item.review_id} by ${by}; reactivated`, now);
    changes.records = [writeOf(record, active)];
    return { changes, message: `${item.review_id} rejected by ${by} — ${record.memory_id} reactivated` };
  }

  const next = approve
    ? nextVersion(record, { status: 'active', status_reason: null, approvals: [...record.approvals, approval] }, `rule-level write approved in ${item.review_id} by ${by}`, now)
    : nextVersion(record, { status: 'retired', status_reason: `rule-level write rejected in ${item.review_id} by ${by}` }, `rule-level write rejected in ${item.review_id} by ${by}`, now);
  changes.records = [writeOf(record, next)];
  return { changes, message: `${item.review_id} ${STATUS[input.decision]} by ${by} — ${record.memory_id} ${next.status}` };
}
