/**
 * What a command path's calls count against the unit, pure. The run gateway's records and its
 * key's `spent` come from parsing upstream replies, and an upstream can be buggy or hostile
 * (issue 20 item 6): a token count that is negative or fractional must not credit the unit.
 * Such a record's usage becomes unknown (`usage_missing`, tokens undefined) and is booked at
 * its reservation; a `spent` that is not a count books the path's whole share.
 */
import { isTokenCount } from '../../../core/usage-sanity.js';
import type { CallRecord } from '../../../ledger/records.js';

const COUNT_FIELDS = ['prompt_tokens', 'completion_tokens', 'total_tokens', 'cached_tokens', 'reasoning_tokens'] as const;

/** Makes a record's usage unknown when any of its counts is not a token count; true when it did. */
export function distrustBadUsage(record: CallRecord): boolean {
  const bad = COUNT_FIELDS.some((field) => record[field] !== undefined && record[field] !== null && !isTokenCount(record[field]));
  if (!bad) return false;
  for (const field of COUNT_FIELDS) record[field] = undefined;
  record.usage_missing = true;
  record.cost_usd = null;
  record.booked_tokens = isTokenCount(record.reserved_tokens) ? record.reserved_tokens : undefined;
  return true;
}

/**
 * Tokens to book for a path: the key's `spent`, never below what its records say they cost
 * (billed, or reserved when unknown); `share` (the key's budget) when `spent` is not a count.
 */
export function pathBooking(records: readonly CallRecord[], spent: unknown, share: number): number {
  let fromRecords = 0;
  for (const record of records) {
    const own = [record.booked_tokens, record.total_tokens, record.usage_missing ? record.reserved_tokens : undefined].find(isTokenCount);
    fromRecords += own ?? 0;
  }
  return Math.max(isTokenCount(spent) ? spent : share, fromRecords);
}
