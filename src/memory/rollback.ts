/**
 * Rollback (seed §4: "regression → roll back at once"): a new version whose content is an
 * earlier one's. History is never rewritten; the rollback is itself a version with a diff.
 * For a skill the default target is the last earlier version that was a live skill with
 * different text — the previously approved skill. Pure.
 */
import { IsobudgetError } from '../core/errors.js';
import type { MemoryRecord } from './record.js';
import type { RecordWrite, StoredVersion } from './store/spec.js';
import { writeOf } from './versioning.js';

export function rollbackTarget(versions: readonly StoredVersion[], toVersion?: number): MemoryRecord | undefined {
  const head = versions[versions.length - 1]?.record;
  if (!head) return undefined;
  if (toVersion !== undefined) return toVersion < head.version ? versions.find((v) => v.record.version === toVersion)?.record : undefined;
  const earlier = versions.slice(0, -1).map((v) => v.record).reverse();
  if (head.type === 'skill') return earlier.find((r) => r.type === 'skill' && r.status === 'active' && r.skill?.text !== head.skill?.text);
  return earlier[0];
}

export function planRollback(versions: readonly StoredVersion[], now: Date, options: { toVersion?: number; note?: string; by?: string } = {}): { write: RecordWrite; message: string } {
  const head = versions[versions.length - 1]?.record;
  if (!head) throw new IsobudgetError('not_found', 'no such memory record');
  const target = rollbackTarget(versions, options.toVersion);
  if (!target) {
    const what = options.toVersion !== undefined ? `version ${options.toVersion} (the head is v${head.version})` : head.type === 'skill' ? 'an earlier approved version with different text' : 'an earlier version';
    throw new IsobudgetError('memory_no_rollback_target', `${head.memory_id} has no ${what} to roll back to`, { hint: head.type === 'skill' ? '`memory show ID` lists the versions; `memory retire ID` takes a skill out without a replacement' : '`memory show ID` lists the versions' });
  }
  const at = now.toISOString();
  const restored: MemoryRecord = {
    ...target,
    version: head.version + 1,
    status: 'active',
    status_reason: null,
    weight_at: at,
    confirmed_at: at,
    approvals: head.approvals,
    evidence: head.evidence,
    changelog: `rollback to v${target.version} (from v${head.version})${options.by ? ` by ${options.by}` : ''}${options.note ? `: ${options.note}` : ''}`,
    created_at: head.created_at,
    updated_at: at,
  };
  return { write: writeOf(head, restored), message: `${head.memory_id}: ${restored.changelog}` };
}
