/**
 * Every change is a new version (seed §6: 版本化一切): these helpers build version k+1 from
 * version k and the diff that shows what the text change was.
 */
import type { MemoryRecord } from './record.js';
import type { RecordWrite } from './store/spec.js';
import { unifiedDiff } from './unified-diff.js';

/** Version k+1 of `record` with `changes` applied; `changelog` says why. */
export function nextVersion(record: MemoryRecord, changes: Partial<MemoryRecord>, changelog: string, now: Date): MemoryRecord {
  return { ...record, ...changes, version: record.version + 1, changelog, updated_at: now.toISOString() };
}

/** Diff of the skill text (or a learning's body) between two versions; null when unchanged. */
export function textDiff(before: MemoryRecord | undefined, after: MemoryRecord): string | null {
  const label = (r: MemoryRecord | undefined, fallback: string): string => (r ? `${r.memory_id} v${r.version}${r.skill ? ` (${r.skill.version})` : ''}` : fallback);
  if (after.skill) {
    const previous = before?.skill?.text ?? after.skill.baseline_text ?? '';
    const from = before?.skill ? label(before, '') : after.skill.baseline_id ?? '/dev/null';
    return unifiedDiff(previous, after.skill.text, { from, to: label(after, after.memory_id) }) || null;
  }
  if (after.body !== null) return unifiedDiff(before?.body ?? '', after.body, { from: label(before, '/dev/null'), to: label(after, after.memory_id) }) || null;
  return null;
}

export function writeOf(before: MemoryRecord | undefined, after: MemoryRecord): RecordWrite {
  return { record: after, diff: textDiff(before, after) };
}
