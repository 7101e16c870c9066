/**
 * Per-call gateway replicas do not serialize every call on the key's row (issue 23, item 7):
 * a call with an output cap is admitted from a small lease its replica cuts from the key (a
 * share of the remainder), so the row is locked for a reservation once per lease, not once per
 * call. Counted, not timed: a trigger on `gateway_keys` counts the updates that raise `reserved`
 * (reservations and lease top-ups) while 120 capped calls run through 2 real replicas. Before
 * the automatic leases every call was one such update (120).
 */
import { describe, expect, test } from 'vitest';
import { skipWithoutPostgres } from '../src/test-support/postgres.js';
import { mixedCall, useGrantCountingSchema } from './support/gateway-replicas.js';

const skip = await skipWithoutPostgres('gateway replicas, automatic leases');
const CALLS = 120;

describe.skipIf(skip)('per-call replicas lease from the key instead of locking it per call', () => {
  const fixture = useGrantCountingSchema('gwauto');
  const { mint, grants } = fixture;

  test('120 capped calls on one key through 2 replicas: a few row grants (≤ 30), not 120; the accounting holds', async () => {
    const { secret, id } = mint(2_000_000);
    const two = await Promise.all([0, 1].map(() => fixture.replica()));
    const outcomes: number[] = [];
    // 12 calls at a time: they overlap, as a busy key's calls do.
    for (let i = 0; i < CALLS; i += 12)
      outcomes.push(
        ...(await Promise.all(Array.from({ length: 12 }, (_, j) => mixedCall(two[(i + j) % 2]!.url, secret, i + j, `auto-${i + j}`)))).map((o) => o.status),
      );
    expect(await Promise.all(two.map((r) => r.stop()))).toEqual([0, 0]);
    expect(outcomes.every((status) => status === 200)).toBe(true);
    const n = await grants(id);
    expect(n, "updates that raised the key row's reserved").toBeGreaterThan(0);
    // 2 replicas × 4 stripes top up once each, and again after a stripe idles (1 s) on a slow machine: far below one per call.
    expect(n).toBeLessThanOrEqual(CALLS / 4);
    const key = (await fixture.db.query('SELECT spent, reserved FROM gateway_keys WHERE id = $1', [id])).rows[0];
    const rows = (await fixture.db.query('SELECT booked_tokens FROM gateway_calls WHERE key_id = $1', [id])).rows as Array<{ booked_tokens: string }>;
    const billed = fixture.upstream.bills.filter((b) => b.who.startsWith('auto-')).reduce((sum, b) => sum + b.total, 0);
    expect(rows.length).toBe(CALLS);
    expect(Number(key.reserved), 'leases returned at stop').toBe(0);
    expect(rows.reduce((sum, r) => sum + Number(r.booked_tokens), 0)).toBe(Number(key.spent));
    expect(Number(key.spent)).toBeGreaterThanOrEqual(billed);
  }, 30_000);

  test('a small remainder is reserved call by call: the share no longer covers a call, nothing is stranded in a lease', async () => {
    // 4 × 2 live replicas: a share of 1,200 tokens is 150, below each call's worst case (a cap of 145+ tokens and its prompt).
    const { secret, id } = mint(1_200);
    const one = await fixture.replica();
    const other = await fixture.replica();
    const statuses: number[] = [];
    // Calls whose caps are 145–234 tokens (mixedCall's cap of call i is 40 + 37i mod 200).
    for (const [n, i] of [160, 161, 162, 165, 166, 210].entries()) statuses.push((await mixedCall((n % 2 ? other : one).url, secret, i, `small-${n}`)).status);
    await Promise.all([one.stop(), other.stop()]);
    const key = (await fixture.db.query('SELECT budget, spent, reserved FROM gateway_keys WHERE id = $1', [id])).rows[0];
    const leases = (await fixture.db.query(`SELECT count(*)::int AS n FROM gateway_calls WHERE key_id = $1 AND outcome = 'unknown_after_crash'`, [id])).rows[0]
      .n as number;
    expect(statuses.filter((s) => s === 200).length).toBeGreaterThan(0);
    expect(Number(key.spent)).toBeLessThanOrEqual(1_200);
    expect(Number(key.reserved)).toBe(0);
    expect(leases).toBe(0);
    // Every call was one reservation of its own (no lease top-up succeeded).
    expect(await grants(id)).toBe(statuses.filter((s) => s === 200).length);
  }, 30_000);
});
