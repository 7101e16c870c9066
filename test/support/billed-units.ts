/**
 * Issue 20 item 1's promise, checked per unit against what a mock upstream billed: Σ billed ≤ B
 * or the unit's paths ended budget_exhausted; the ledger books at least every billed token; the
 * unit's total (what the verdict reads) is what its calls booked. For runs of n=1 arms whose
 * bills are attributed by `unitOf` (the case's question and the variant).
 */
import { expect } from 'vitest';
import { armMetrics } from '../../src/analysis/arm-metrics.js';
import type { CallRecord, ResultRecord } from '../../src/ledger/records.js';
import type { MockBill } from './mock-upstream.js';

/** A bill's unit: the case's question and the variant (the candidate's skill says "Show the sum"). */
export function unitOf(body: Record<string, unknown>): string {
  const messages = (body['messages'] ?? []) as Array<{ role: string; content: string }>;
  const system = messages.find((m) => m.role === 'system')?.content ?? '';
  const user = messages.find((m) => m.role === 'user')?.content ?? '';
  return `${user}|${system.includes('Show the sum') ? 'candidate' : 'baseline'}`;
}

/** The same key from a result of test/support/experiment.ts's arithmetic cases. */
function unitKey(result: ResultRecord): string {
  const i = Number(result.case_id.slice(1));
  return `What is ${i} + ${i * 2}?|${result.variant}`;
}

/** What a call record books against B: its billed total, or its reservation when usage is unknown. */
export function booked(call: CallRecord): number {
  return call.usage_missing ? (call.reserved_tokens ?? 0) : (call.total_tokens ?? 0);
}

export function expectEveryBilledTokenBooked(budget: number, calls: readonly CallRecord[], results: readonly ResultRecord[], mockBills: readonly MockBill[]): void {
  const bills = new Map<string, number>();
  for (const bill of mockBills) bills.set(bill.who, (bills.get(bill.who) ?? 0) + bill.total);
  expect(bills.size).toBe(results.length);
  let billedAll = 0;
  let bookedAll = 0;
  for (const result of results) {
    const key = unitKey(result);
    const billed = bills.get(key) ?? 0;
    const unitBooked = calls.filter((c) => c.case_id === result.case_id && c.arm === result.arm && c.epoch === result.epoch).reduce((acc, c) => acc + booked(c), 0);
    billedAll += billed;
    bookedAll += unitBooked;
    // The budget promise: B holds, or the unit ran out of it (and says so).
    if (billed > budget) expect(result.paths.every((p) => p.finish_reason === 'budget_exhausted'), key).toBe(true);
    expect(billed, key).toBeLessThanOrEqual(budget);
    // The ledger holds every billed token, and the unit's own total counts them.
    expect(unitBooked, key).toBeGreaterThanOrEqual(billed);
    expect(unitBooked, key).toBeLessThanOrEqual(budget);
    expect(result.over_budget).toBe(false);
    if (result.total_tokens !== undefined) {
      expect(result.total_tokens, key).toBe(unitBooked);
      expect(result.total_tokens, key).toBeGreaterThanOrEqual(billed);
    }
  }
  expect(bookedAll).toBeGreaterThanOrEqual(billedAll);
  // What the verdict reads: no unit over B, and the token metrics carry the booked attempts.
  expect(armMetrics(results).reduce((acc, m) => acc + m.overBudgetUnits, 0)).toBe(0);
}
