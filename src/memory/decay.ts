/**
 * Active forgetting (seed §5: 主动遗忘): a record's weight halves every half-life unless new
 * same-budget evidence reconfirms it. Computed on read from (weight, weight_at), so a
 * record is not rewritten every day; `memory decay --apply` persists only retirements.
 */
import type { MemoryRecord } from './record.js';
import type { MemoryPolicy } from './policy.js';
import type { RecordWrite } from './store/spec.js';
import { nextVersion, writeOf } from './versioning.js';

const DAY_MS = 86_400_000;

/** Weight at `now`: weight × 2^(−elapsed / half-life). Never above the stored weight (a clock behind weight_at does not inflate it). */
export function effectiveWeight(record: Pick<MemoryRecord, 'weight' | 'weight_at'>, now: Date, policy: Pick<MemoryPolicy, 'halfLifeDays'>): number {
  const elapsedDays = Math.max(0, now.getTime() - Date.parse(record.weight_at)) / DAY_MS;
  return record.weight * 2 ** (-elapsedDays / policy.halfLifeDays);
}

/** Active records whose decayed weight fell below the retirement floor. */
export function decayedOut(records: readonly MemoryRecord[], now: Date, policy: MemoryPolicy): MemoryRecord[] {
  return records.filter((r) => r.status === 'active' && effectiveWeight(r, now, policy) < policy.retireBelow);
}

/** New versions retiring the records that decayed out (what `memory decay --apply` commits). */
export function planDecayRetirements(records: readonly MemoryRecord[], now: Date, policy: MemoryPolicy): RecordWrite[] {
  return decayedOut(records, now, policy).map((record) => {
    const weight = effectiveWeight(record, now, policy);
    const days = ((now.getTime() - Date.parse(record.confirmed_at)) / DAY_MS).toFixed(0);
    const why = `decayed to weight ${weight.toFixed(3)} (< ${policy.retireBelow}); not reconfirmed for ${days} days (half-life ${policy.halfLifeDays} days)`;
    return writeOf(record, nextVersion(record, { status: 'retired', status_reason: why, weight, weight_at: now.toISOString() }, why, now));
  });
}
