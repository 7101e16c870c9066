/** A command path's booking never takes a credit from a record or a key (issue 20 item 6, run side). */
import { describe, expect, test } from 'vitest';
import type { CallRecord } from '../../../ledger/records.js';
import { distrustBadUsage, pathBooking } from './gateway-booking.js';

function record(fields: Partial<CallRecord>): CallRecord {
  return { prompt_tokens: 100, completion_tokens: 50, total_tokens: 150, cached_tokens: undefined, reasoning_tokens: undefined, usage_missing: false, reserved_tokens: 400, booked_tokens: 150, cost_usd: 0.1, ...fields } as CallRecord;
}

describe('distrustBadUsage', () => {
  test('sane usage is kept', () => {
    const call = record({});
    expect(distrustBadUsage(call)).toBe(false);
    expect(call).toMatchObject({ total_tokens: 150, usage_missing: false, booked_tokens: 150 });
  });

  test.each([
    ['a negative completion', { completion_tokens: -2532, total_tokens: -2432 }],
    ['a fractional prompt', { prompt_tokens: 10.5 }],
    ['a negative cached count', { cached_tokens: -1 }],
  ])('%s: the usage becomes unknown, booked at the reservation', (_name, fields) => {
    const call = record(fields);
    expect(distrustBadUsage(call)).toBe(true);
    expect(call).toMatchObject({ usage_missing: true, booked_tokens: 400, cost_usd: null });
    expect([call.prompt_tokens, call.completion_tokens, call.total_tokens]).toEqual([undefined, undefined, undefined]);
  });
});

describe('pathBooking', () => {
  test("the key's spent, never below what its records cost", () => {
    expect(pathBooking([record({})], 150, 1000)).toBe(150);
    expect(pathBooking([record({}), record({ usage_missing: true, total_tokens: undefined, booked_tokens: undefined })], 150, 1000)).toBe(550);
  });

  test("a spent that is not a count books the path's whole share", () => {
    expect(pathBooking([record({})], -2382, 1000)).toBe(1000);
    expect(pathBooking([], 12.5, 1000)).toBe(1000);
  });
});
