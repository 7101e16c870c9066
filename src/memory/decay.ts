/**
 * Active forgetting (seed §5: 主动遗忘): a record's weight halves every half-life unless new
 * same-budget evidence reconfirms it. Computed on read from (weight, weight_at), so a
 * record is not rewritten every day; `memory decay --apply` persists only retirements.
 */
import type { MemoryRecord } from './record.js';
import type { MemoryPolicy } from './policy.js';

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
