/**
 * The Postgres gateway store on a real server, below HTTP: concurrent reservations on one key
 * against one budget, a replica declared dead (its reservations booked as spent, its late
 * settlements adding only what they billed beyond), and leases (taken, returned, booked whole
 * when their replica dies). After each: spent = Σ gateway_calls.booked_tokens, and tokens are
 * always in `reserved` or `spent`.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { finishReason } from '../../../core/finish-reason.js';
import { applyMigrations, MIGRATIONS } from '../../../db/index.js';
import { freshSchema, skipWithoutPostgres, type TestSchema } from '../../../test-support/postgres.js';
import type { Admission } from '../../budget/key-budgets.js';
import { readBudgetFields } from '../../budget-fields.js';
import type { VirtualKey } from '../../keys/virtual-key.js';
import { buildGatewayRecord } from '../../ledger/gateway-record.js';
import { openPgStore, type PgGatewayStore } from './open-store.js';

const skip = await skipWithoutPostgres('gateway Postgres store');
type Granted = Extract<Admission, { ok: true }>;

describe.skipIf(skip)('gateway store on PostgreSQL', () => {
  let schema: TestSchema;
  let db: pg.Pool;
  const stores: PgGatewayStore[] = [];
  let calls = 0;

  beforeAll(async () => {
    schema = await freshSchema('gwstore');
    db = new pg.Pool({ connectionString: schema.url, max: 20 });
    await applyMigrations(db, MIGRATIONS);
  });
  afterAll(async () => {
    for (const store of stores) await store.close().catch(() => {});
    await db?.end();
    await schema?.drop();
  });

  /**
   * `manual`: no heartbeat timer — the test beats and reclaims itself. A replica stalled on
   * purpose must not beat between the stall and the reclaim, nor its peer reclaim it first in the
   * background (both would, now and then, on a loaded CI machine).
   */
  /** `autoLease` is off by default here: these tests pin the per-call statement's rows (test/gateway-replicas-auto-lease.test.ts covers the leases). */
  async function open(options: { leaseTokens?: number; staleMs?: number; manual?: boolean; autoLease?: boolean } = {}): Promise<PgGatewayStore> {
    const store = await openPgStore({ db, where: 'test', upstream: 'http://upstream.test', budgetWaitMs: 300, staleMs: options.staleMs ?? 60_000, heartbeatMs: options.manual ? 3_600_000 : undefined, leaseTokens: options.leaseTokens, autoLease: options.autoLease ?? false });
    stores.push(store);
    return store;
  }

  async function admit(store: PgGatewayStore, key: VirtualKey, maxTokens: number, prompt = 20): Promise<Admission & { callId: string }> {
    const body = { model: 'm', messages: [{ role: 'user', content: 'hi' }], max_tokens: maxTokens };
    const read = readBudgetFields('openai-chat', body);
    if (!read.ok) throw new Error(read.message);
    const callId = `t-${calls++}`;
    const decided = await store.budgets.admit({ key, protocol: 'openai-chat', body, fields: read.fields, promptTokens: prompt, signal: () => new AbortController().signal, call: { id: callId, sessionId: callId } });
    if (decided.ok) store.book.reserve({ callId, ticket: decided.ticket, keyId: key.id, tokens: decided.reservation, model: 'm', endpoint: '/v1/chat/completions', protocol: 'openai-chat', stream: false, sessionId: callId, ts: new Date().toISOString() });
    return { ...decided, callId };
  }

  /** Settles a granted call with `billed` tokens, as relay-call does: budgets, then the record with its settlement. */
  function settle(store: PgGatewayStore, key: VirtualKey, call: Granted & { callId: string }, billed: number): void {
    const over = store.budgets.settle(key, call.reservation, billed, call.ticket);
    const record = buildGatewayRecord(
      { callId: call.callId, keyId: key.id, tags: {}, sessionId: call.callId, endpoint: '/v1/chat/completions', protocol: 'openai-chat', baseUrl: 'http://upstream.test', model: 'm', stream: false, attempt: 1 },
      { usage: { inputTokens: 20, outputTokens: billed - 20, totalTokens: billed, cachedTokens: undefined, reasoningTokens: undefined }, finish: finishReason('stop', 'stop'), maxTokens: 0, requestedMaxTokens: undefined, ttfbMs: 1, gatewayMs: 0.1, status: 200, error: undefined, note: undefined, reservedTokens: call.reservation, bookedTokens: billed, overReservation: over },
      5,
      new Date(),
    );
    store.book.finish(record, { callId: call.callId, keyId: key.id, booked: billed, over });
  }

  /** Polls `done` (every 20 ms, 10 s at most): write-behind settlements and idle leases land when they land. */
  async function until(done: () => Promise<boolean> | boolean): Promise<void> {
    for (const deadline = Date.now() + 10_000; !(await done()) && Date.now() < deadline; ) await new Promise((resolve) => setTimeout(resolve, 20));
  }

  async function key(id: string): Promise<{ spent: number; reserved: number; closed: string | null; booked: number }> {
    const row = (await db.query('SELECT spent, reserved, closed FROM gateway_keys WHERE id = $1', [id])).rows[0];
    const booked = Number((await db.query('SELECT coalesce(sum(booked_tokens), 0) AS b FROM gateway_calls WHERE key_id = $1', [id])).rows[0].b);
    return { spent: Number(row.spent), reserved: Number(row.reserved), closed: row.closed, booked };
  }

  test('300 concurrent reservations on one key from two replicas grant at most the budget', async () => {
    const [a, b] = [await open(), await open()];
    const { key: k } = await a.keys.create({ budget: 10_000, tags: {} });
    const from = (i: number): PgGatewayStore => (i % 2 ? a : b);
    const decided = await Promise.all(Array.from({ length: 300 }, (_, i) => admit(from(i), k, 60 + (i % 7) * 20)));
    const granted = decided.filter((d): d is Granted & { callId: string } => d.ok);
    const reserved = granted.reduce((sum, d) => sum + d.reservation, 0);
    expect(reserved).toBeLessThanOrEqual(10_000);
    // Every grant is the prompt plus whole output caps, clamped to the same cap the body now carries.
    for (const d of granted) expect(d.reservation).toBe(20 + d.clamp!.maxTokens);
    expect(decided.filter((d) => !d.ok).every((d) => !d.ok && d.reason === 'spent' && /held the rest/.test(d.detail))).toBe(true);
    expect((await key(k.id)).reserved).toBe(reserved);
    expect(reserved).toBeGreaterThan(10_000 - 200);
    // Each settles on the replica that admitted it, billing at most what it reserved.
    let billed = 0;
    decided.forEach((d, i) => {
      if (!d.ok) return;
      settle(from(i), k, d, Math.min(50, d.reservation));
      billed += Math.min(50, d.reservation);
    });
    await Promise.all([a, b].map((s) => s.close()));
    expect(await key(k.id)).toEqual({ spent: billed, reserved: 0, closed: null, booked: billed });
  });

  test('automatic leases (per-call mode): 300 concurrent calls from two replicas, every call its own row, a few lease rows, all returned at close', async () => {
    const [a, b] = [await open({ autoLease: true }), await open({ autoLease: true })];
    // Budget for all 300 (≈ 48k of worst cases): the leases stay (a tight key is test/gateway-replicas-auto-lease.test.ts's).
    const { key: k } = await a.keys.create({ budget: 100_000, tags: {} });
    const from = (i: number): PgGatewayStore => (i % 2 ? a : b);
    const decided = await Promise.all(Array.from({ length: 300 }, (_, i) => admit(from(i), k, 60 + (i % 7) * 20)));
    const granted = decided.filter((d): d is Granted & { callId: string } => d.ok);
    const reserved = granted.reduce((sum, d) => sum + d.reservation, 0);
    expect(granted.length).toBe(300);
    // Leases and per-call rows together hold what was granted (and, in leases, a little more), never past the budget.
    const row = await key(k.id);
    expect(row.reserved).toBeGreaterThanOrEqual(reserved);
    expect(row.reserved).toBeLessThanOrEqual(100_000);
    // Every call has its own reservation row; the leases they came from are a few rows per replica (4 stripes each).
    const rows = (await db.query(`SELECT count(*) FILTER (WHERE kind = 'lease')::int AS leases, count(*) FILTER (WHERE kind = 'call')::int AS calls FROM gateway_reservations WHERE key_id = $1`, [k.id])).rows[0];
    expect(rows.calls).toBe(granted.length);
    expect(rows.leases).toBeGreaterThan(0);
    expect(rows.leases).toBeLessThanOrEqual(8);
    let billed = 0;
    decided.forEach((d, i) => {
      if (!d.ok) return;
      settle(from(i), k, d, Math.min(50, d.reservation));
      billed += Math.min(50, d.reservation);
    });
    await Promise.all([a, b].map((s) => s.close()));
    expect(await key(k.id)).toEqual({ spent: billed, reserved: 0, closed: null, booked: billed });
  });

  test('automatic leases batch concurrent calls: 200 at once on one replica take from its stripes in a few statements, each call still its own row', async () => {
    // Counts takes: updates that lower a lease row's tokens (before batching, one per call).
    await db.query(`CREATE TABLE takes_counted (key_id text PRIMARY KEY, n bigint NOT NULL)`);
    await db.query(`CREATE FUNCTION count_take() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO takes_counted VALUES (NEW.key_id, 1) ON CONFLICT (key_id) DO UPDATE SET n = takes_counted.n + 1;
        RETURN NEW;
      END $$`);
    await db.query(`CREATE TRIGGER count_take BEFORE UPDATE ON gateway_reservations FOR EACH ROW WHEN (NEW.kind = 'lease' AND NEW.tokens < OLD.tokens) EXECUTE FUNCTION count_take()`);
    try {
      const a = await open({ autoLease: true });
      const { key: k } = await a.keys.create({ budget: 1_000_000, tags: {} });
      const decided = await Promise.all(Array.from({ length: 200 }, (_, i) => admit(a, k, 60 + (i % 7) * 20)));
      expect(decided.every((d) => d.ok)).toBe(true);
      const takes = Number((await db.query('SELECT n FROM takes_counted WHERE key_id = $1', [k.id])).rows[0]?.n ?? 0);
      expect(takes).toBeGreaterThan(0);
      expect(takes, 'takes for 200 concurrent calls').toBeLessThanOrEqual(20);
      const calls = (await db.query(`SELECT count(*)::int AS n, coalesce(sum(tokens), 0)::bigint AS t FROM gateway_reservations WHERE key_id = $1 AND kind = 'call'`, [k.id])).rows[0];
      expect(calls.n).toBe(200);
      expect(Number(calls.t)).toBe(decided.reduce((sum, d) => sum + (d.ok ? d.reservation : 0), 0));
      let billed = 0;
      for (const d of decided) {
        if (!d.ok) continue;
        settle(a, k, d, 50);
        billed += 50;
      }
      await a.close();
      expect(await key(k.id)).toEqual({ spent: billed, reserved: 0, closed: null, booked: billed });
    } finally {
      await db.query('DROP TRIGGER count_take ON gateway_reservations; DROP FUNCTION count_take(); DROP TABLE takes_counted');
    }
  });

  test('automatic leases fit large calls: a 30,000-token cap takes a lease of 4 such calls, not the 10,000-token default', async () => {
    const a = await open({ autoLease: true });
    const { key: k } = await a.keys.create({ budget: 100_000_000, tags: {} });
    const call = await admit(a, k, 30_000);
    expect(call.ok && call.reservation).toBe(30_020);
    const leases = (await db.query(`SELECT tokens FROM gateway_reservations WHERE key_id = $1 AND kind = 'lease'`, [k.id])).rows.map((r) => Number(r.tokens));
    expect(leases).toEqual([4 * 30_020 - 30_020]);
    if (call.ok) settle(a, k, call, 1_000);
    await a.close();
    expect(await key(k.id)).toEqual({ spent: 1_000, reserved: 0, closed: null, booked: 1_000 });
  });

  test('a replica declared dead: reservations booked as spent, late settlements add only the excess, it re-registers', async () => {
    const [a, b] = [await open({ manual: true }), await open({ manual: true })];
    const { key: k } = await a.keys.create({ budget: 5_000, tags: {} });
    const held = await Promise.all([admit(a, k, 100), admit(a, k, 100), admit(a, k, 100)]) as Array<Granted & { callId: string }>;
    const oldId = a.replica.id;
    // A stalls: its heartbeat goes stale, and B reclaims it.
    await db.query(`UPDATE gateway_replicas SET heartbeat_at = now() - interval '1 hour' WHERE id = $1`, [oldId]);
    const taken = await b.replica.reclaimStale();
    expect(taken).toMatchObject({ replicas: [oldId], reservations: 3, tokens: 360 });
    expect(await key(k.id)).toEqual({ spent: 360, reserved: 0, closed: null, booked: 360 });
    const unknown = (await db.query(`SELECT call_id, session_id, outcome FROM gateway_calls WHERE key_id = $1 ORDER BY call_id`, [k.id])).rows;
    expect(unknown.map((r) => [r.call_id, r.session_id, r.outcome])).toEqual(held.map((h) => [h.callId, h.callId, 'unknown_after_crash']).sort());
    // A wakes: one call billed under its reservation, one over it (the key closes).
    settle(a, k, held[0]!, 70);
    settle(a, k, held[1]!, 150);
    await a.replica.beat();
    await until(() => a.backlog() === 0);
    expect(a.replica.id).not.toBe(oldId);
    const after = await key(k.id);
    expect(after).toEqual({ spent: 360 + 30, reserved: 0, closed: 'over_reservation', booked: 390 });
    const late = (await db.query(`SELECT booked_tokens, outcome FROM gateway_calls WHERE call_id = ANY($1) ORDER BY call_id`, [[held[0]!.callId, held[1]!.callId]])).rows;
    expect(late.map((r) => [Number(r.booked_tokens), r.outcome])).toEqual([[120, 'settled_after_reclaim'], [150, 'settled_after_reclaim']]);
  });

  test('leases: taken once for many calls, returned when idle, booked whole when their replica dies', async () => {
    const a = await open({ leaseTokens: 1_000, manual: true });
    const b = await open({ manual: true });
    const { key: k } = await a.keys.create({ budget: 5_000, tags: {} });
    const first = await admit(a, k, 100) as Granted & { callId: string };
    expect(await key(k.id)).toMatchObject({ reserved: 1_000, spent: 0 });
    // The next calls come from the lease in memory: no new tokens reserved in the database.
    const more = await Promise.all([admit(a, k, 100), admit(a, k, 100)]) as Array<Granted & { callId: string }>;
    expect(await key(k.id)).toMatchObject({ reserved: 1_000 });
    for (const call of [first, ...more]) settle(a, k, call, 60);
    // Idle for 1 s, the lease goes back; then its settlements and the return are written.
    await until(async () => a.backlog() === 0 && (await key(k.id)).reserved === 0);
    expect(await key(k.id)).toEqual({ spent: 180, reserved: 0, closed: null, booked: 180 });
    // A lease held when its replica dies is booked whole: its calls may have used any of it.
    const held = await admit(a, k, 100) as Granted & { callId: string };
    expect(held.ok).toBe(true);
    await db.query(`UPDATE gateway_replicas SET heartbeat_at = now() - interval '1 hour' WHERE id = $1`, [a.replica.id]);
    expect(await b.replica.reclaimStale()).toMatchObject({ reservations: 1, tokens: 1_000 });
    expect(await key(k.id)).toEqual({ spent: 1_180, reserved: 0, closed: null, booked: 1_180 });
  });

  test('a reservation that commits just as its replica is declared dead is swept as spent by the next reclaim', async () => {
    const [a, b] = [await open({ manual: true }), await open({ manual: true })];
    const { key: k } = await a.keys.create({ budget: 5_000, tags: {} });
    const late = await admit(a, k, 100) as Granted & { callId: string };
    // The race, replayed: A's row says reclaimed while its reservation row is still there.
    await db.query(`UPDATE gateway_replicas SET state = 'reclaimed', reclaimed_by = $2 WHERE id = $1`, [a.replica.id, b.replica.id]);
    expect(await key(k.id)).toMatchObject({ reserved: 120, spent: 0 });
    expect(await b.replica.reclaimStale()).toMatchObject({ replicas: [], reservations: 1, tokens: 120 });
    expect(await key(k.id)).toEqual({ spent: 120, reserved: 0, closed: null, booked: 120 });
    const row = (await db.query('SELECT outcome, session_id FROM gateway_calls WHERE call_id = $1', [late.callId])).rows[0];
    expect(row).toEqual({ outcome: 'unknown_after_crash', session_id: late.callId });
  });
});
