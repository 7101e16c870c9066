/** Taking a record out by hand (a conflict resolved, a skill withdrawn): a new version, status retired. Pure. */
import { IsobudgetError } from '../core/errors.js';
import type { MemoryRecord } from './record.js';
import type { RecordWrite } from './store/spec.js';
import { nextVersion, writeOf } from './versioning.js';

export function planRetire(record: MemoryRecord, by: string, note: string | null, now: Date): RecordWrite {
  if (record.status === 'retired') throw new IsobudgetError('memory_retired', `${record.memory_id} is already retired (${record.status_reason ?? 'no reason recorded'})`);
  const why = `retired by ${by}${note ? `: ${note}` : ''}`;
  return writeOf(record, nextVersion(record, { status: 'retired', status_reason: why }, why, now));
}
