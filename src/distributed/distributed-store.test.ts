/**
 * The database side of distributed runs, in-process on a real PostgreSQL: a unit commits
 * exactly once whatever the number of attempts racing it, a dead attempt's calls end up
 * `interrupted`, and rate limits hold across "workers" (separate limiter instances).
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { freshSchema, skipWithoutPostgres, type TestSchema } from '../test-support/postgres.js';
import { applyMigrations, MIGRATIONS, openPool, type Database } from '../db/index.js';
import { LEDGER_SCHEMA_VERSION, type CallRecord, type ResultRecord } from '../ledger/records.js';
import { unknownOutcomeRecord } from '../ledger/call-intents.js';
import { SharedRateLimiter } from './shared-rate-limit.js';
import { UnitLedger } from './unit-ledger.js';

const skip = await skipWithoutPostgres('distributed store');
const KEY = 'val|c1|baseline_single|0';

function start() {
  return { run_id: 'r1', case_id: 'c1', arm: 'baseline_single', n: 1, path: 0, paths: 1, epoch: 0, split: 'val' as const, model: 'm', base_url: 'http://x', protocol: 'sim', role: 'generate' as const, attempt: 1, max_tokens: 64, reserved_tokens: 100 };
}
function call(callId: string): CallRecord {
  return { ...unknownOutcomeRecord({ schema_version: LEDGER_SCHEMA_VERSION, kind: 'call_start', ts: new Date().toISOString(), ...start(), call_id: callId }), prompt_tokens: 10, completion_tokens: 5, total_tokens: 15, usage_missing: false, finish_reason: 'stop', note: undefined, error: undefined, status: 200 };
}
const result = { schema_version: LEDGER_SCHEMA_VERSION, kind: 'result', run_id: 'r1', case_id: 'c1', arm: 'baseline_single', variant: 'baseline', n: 1, epoch: 0, split: 'val', passed: true, passed_any: true, passes: 1, paths: [], total_tokens: 15, calls: 1, retries: 0, budget: 100, latency_ms: 3, ts: new Date().toISOString() } as unknown as ResultRecord;

describe.skipIf(skip)('distributed store', () => {
  let schema: TestSchema;
  let db: Database;
  beforeAll(async () => {
    schema = await freshSchema('dstore');
    db = openPool(schema.url, { applicationName: 'test', max: 12 });
    await applyMigrations(db, MIGRATIONS);
    await db.query(`INSERT INTO runs (run_id, experiment, status, split, config_hash, inputs, manifest, units_planned, lease_seconds) VALUES ('r1', 'e', 'running', 'val', 'h', '{}', '{}', 1, 60)`);
    await db.query(`INSERT INTO units (run_id, unit_key, seq, split, case_id, arm, epoch) VALUES ('r1', $1, 0, 'val', 'c1', 'baseline_single', 0)`, [KEY]);
  });
  afterAll(async () => {
    await db?.end();
    await schema?.drop();
  });

  test('one unit, three attempts (one dead mid-call): one result, the others\' calls interrupted', async () => {
    const ledger = (attemptId: string): UnitLedger => new UnitLedger(db, { runId: 'r1', unitKey: KEY, attemptId, seq: 0 }, (t) => t);
    const dead = ledger('dead');
    await dead.startCall(start());
    const [a, b] = [ledger('a'), ledger('b')];
    const ids = [await a.startCall(start()), await b.startCall(start())];
    const won = await Promise.all([a.commit([call(ids[0]!)], result), b.commit([call(ids[1]!)], result)]);
    expect(won.filter(Boolean)).toHaveLength(1);
    expect((await db.query('SELECT count(*)::int AS n FROM results')).rows[0].n).toBe(1);
    const states = (await db.query<{ attempt_id: string; state: string; total_tokens: string | null }>('SELECT attempt_id, state, total_tokens FROM calls ORDER BY attempt_id')).rows;
    const winner = won[0] ? 'a' : 'b';
    expect(states).toEqual([
      { attempt_id: 'a', state: winner === 'a' ? 'committed' : 'interrupted', total_tokens: '15' },
      { attempt_id: 'b', state: winner === 'b' ? 'committed' : 'interrupted', total_tokens: '15' },
      // The dead attempt's intent: billed (perhaps), usage unknown, never counted.
      { attempt_id: 'dead', state: 'interrupted', total_tokens: null },
    ]);
    expect((await db.query(`SELECT state FROM units WHERE unit_key = $1`, [KEY])).rows[0].state).toBe('committed');
  });

  test('a command agent\'s call still upstream when its unit commits is interrupted, and its late record keeps that state', async () => {
    const key = 'val|c2|baseline_single|0';
    await db.query(`INSERT INTO units (run_id, unit_key, seq, split, case_id, arm, epoch) VALUES ('r1', $1, 1, 'val', 'c2', 'baseline_single', 0)`, [key]);
    const ledger = new UnitLedger(db, { runId: 'r1', unitKey: key, attemptId: 'gw', seq: 1 }, (t) => t);
    const gatewayStart = { ...start(), case_id: 'c2', role: 'gateway' as const };
    await ledger.startGatewayCall(gatewayStart, 'p-1');
    await ledger.startGatewayCall(gatewayStart, 'p-2');
    const rows = async () => (await db.query<{ call_id: string; state: string; total_tokens: string | null; note: string | null }>(`SELECT call_id, state, total_tokens, record->>'note' AS note FROM calls WHERE attempt_id = 'gw' ORDER BY call_id`)).rows;
    // Both intents are rows before their requests leave.
    expect((await rows()).map((r) => [r.call_id, r.state])).toEqual([['gw-g-p-1', 'in_flight'], ['gw-g-p-2', 'in_flight']]);
    const done = { ...call('p-1'), case_id: 'c2', role: 'gateway' as const };
    ledger.recordFinished(done);
    expect(await ledger.commit([done], { ...result, case_id: 'c2' })).toBe(true);
    expect(await rows()).toEqual([
      { call_id: 'gw-g-p-1', state: 'committed', total_tokens: '15', note: null },
      { call_id: 'gw-g-p-2', state: 'interrupted', total_tokens: null, note: 'outcome_unknown' },
    ]);
    ledger.recordFinished({ ...call('p-2'), case_id: 'c2', role: 'gateway' });
    for (let i = 0; i < 100 && (await rows())[1]?.total_tokens === null; i += 1) await new Promise((resolve) => setTimeout(resolve, 20));
    expect((await rows())[1]).toEqual({ call_id: 'gw-g-p-2', state: 'interrupted', total_tokens: '15', note: null });
  });

  test('requests per second hold across two workers', async () => {
    await db.query(`INSERT INTO runs (run_id, experiment, status, split, config_hash, inputs, manifest, units_planned, lease_seconds) VALUES ('r2', 'e', 'running', 'val', 'h', '{}', '{}', 1, 60)`);
    const workers = [1, 2].map(() => new SharedRateLimiter(db, 'r2', { requestsPerSecond: 20, tokensPerMinute: undefined }));
    const started = performance.now();
    await Promise.all(Array.from({ length: 20 }, (_, i) => workers[i % 2]!.wait()));
    // 20 starts at 20/s: the last no earlier than 19 intervals after the first (each worker alone would need 0.45 s).
    expect(performance.now() - started).toBeGreaterThanOrEqual(19 * 50 - 20);
  });

  test('tokens per minute hold across two workers, and a 429 pause holds back the other worker', async () => {
    await db.query(`INSERT INTO runs (run_id, experiment, status, split, config_hash, inputs, manifest, units_planned, lease_seconds) VALUES ('r3', 'e', 'running', 'val', 'h', '{}', '{}', 1, 60)`);
    const [a, b] = [1, 2].map(() => new SharedRateLimiter(db, 'r3', { requestsPerSecond: undefined, tokensPerMinute: 60_000 })) as [SharedRateLimiter, SharedRateLimiter];
    let started = performance.now();
    await a.wait(undefined, 60_000); // the whole minute's bucket
    expect(performance.now() - started).toBeLessThan(300);
    started = performance.now();
    await b.wait(undefined, 500); // 500 tokens at 1,000/s: about half a second
    expect(performance.now() - started).toBeGreaterThanOrEqual(450);
    await a.pause(600);
    started = performance.now();
    await b.wait(undefined, 1);
    expect(performance.now() - started).toBeGreaterThanOrEqual(550);
  });
  test('a process stalled past its slots does not start their requests at once', async () => {
    await db.query(`INSERT INTO runs (run_id, experiment, status, split, config_hash, inputs, manifest, units_planned, lease_seconds) VALUES ('r4', 'e', 'running', 'val', 'h', '{}', '{}', 1, 60)`);
    // Counts the limiter's answered queries, to stall only once both lanes sleep toward their slots.
    let answered = 0;
    const counted = Object.create(db) as Database;
    counted.query = ((...args: Parameters<Database['query']>) => (db.query as (...a: unknown[]) => Promise<unknown>)(...args).finally(() => (answered += 1))) as Database['query'];
    const limiter = new SharedRateLimiter(counted, 'r4', { requestsPerSecond: 10, tokensPerMinute: undefined });
    await limiter.wait();
    const before = answered;
    const starts: number[] = [];
    const lanes = [0, 1].map(() => limiter.wait().then(() => starts.push(performance.now())));
    while (answered < before + 2) await new Promise((resolve) => setTimeout(resolve, 1));
    await new Promise((resolve) => setImmediate(resolve));
    // Both slots (100 and 200 ms ahead) pass while the process is busy: both timers fire together.
    for (const until = performance.now() + 350; performance.now() < until; );
    await Promise.all(lanes);
    expect(starts[1]! - starts[0]!).toBeGreaterThanOrEqual(50);
  });
});
