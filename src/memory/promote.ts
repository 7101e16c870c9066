/**
 * Promotion of an approved skill candidate (seed §5, tier 3). One live skill per skill name:
 * if one exists, the approved text becomes its next version (stored with the diff from the
 * text it replaces, so rollback can restore it); otherwise a new `skill` record starts.
 * The candidate is retired with a pointer to the skill. Pure.
 */
import { IsobudgetError } from '../core/errors.js';
import { nextMemoryId } from './ids.js';
import { newRecord } from './new-record.js';
import type { Approval, MemoryRecord } from './record.js';
import type { RecordWrite } from './store/spec.js';
import { nextVersion, writeOf } from './versioning.js';

export interface Promotion {
  writes: RecordWrite[];
  skill: MemoryRecord;
  message: string;
}

const union = (a: readonly string[], b: readonly string[]): string[] => [...new Set([...a, ...b])];

export function promoteCandidate(candidate: MemoryRecord, records: readonly MemoryRecord[], approval: Approval, now: Date): Promotion {
  if (candidate.type !== 'skill_candidate' || !candidate.skill) {
    throw new IsobudgetError('memory_not_candidate', `${candidate.memory_id} is a ${candidate.type}${candidate.skill ? '' : ' without skill text'}: only skill candidates are promoted`);
  }
  if (candidate.status !== 'active') {
    throw new IsobudgetError('memory_not_active', `${candidate.memory_id} is ${candidate.status}${candidate.status_reason ? ` (${candidate.status_reason})` : ''}: it cannot be promoted`, { hint: 'a frozen candidate needs new same-budget evidence or a rollback first' });
  }
  const at = now.toISOString();
  const { memory_id: _id, version: _v, created_at: _c, updated_at: _u, changelog: _l, type: _t, status: _s, status_reason: _r, approvals: _a, ...content } = candidate;
  const live = { ...content, status: 'active' as const, status_reason: null, disposition: 'skill' as const, weight: 1, weight_at: at, confirmed_at: at };
  const name = candidate.skill.name;
  const existing = records.find((r) => r.type === 'skill' && r.status !== 'retired' && r.skill?.name === name);
  let skill: MemoryRecord;
  if (existing) {
    skill = nextVersion(existing, { ...live, approvals: [...existing.approvals, approval], run_ids: union(existing.run_ids, candidate.run_ids) }, `${candidate.candidate_id ?? name} (version ${candidate.skill.version}) approved by ${approval.reviewer}${approval.note ? `: ${approval.note}` : ''} — replaces ${existing.candidate_id ?? `v${existing.version}`}`, now);
  } else {
    const id = nextMemoryId(name, records.map((r) => r.memory_id));
    skill = newRecord(id, 'skill', { ...live, approvals: [approval], changelog: `${candidate.candidate_id ?? name} (version ${candidate.skill.version}) approved by ${approval.reviewer}${approval.note ? `: ${approval.note}` : ''} — first skill named ${name}` }, now);
  }
  const retired = nextVersion(candidate, { status: 'retired', status_reason: `promoted to ${skill.memory_id} v${skill.version}`, approvals: [...candidate.approvals, approval] }, `promoted to skill ${skill.memory_id} v${skill.version}`, now);
  return {
    writes: [writeOf(existing, skill), writeOf(candidate, retired)],
    skill,
    message: `${candidate.memory_id} promoted: skill ${skill.memory_id} v${skill.version} (${name})`,
  };
}
