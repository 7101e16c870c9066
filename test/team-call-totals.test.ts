/**
 * call_totals (migration 0005) against the calls it sums: the triggers keep it through every
 * statement the ledger writes (insert, the upsert's update, update, delete), a finished run's
 * rows fold into hours (and take late writes after), the migration sums a database already
 * filled by the previous version, the check names a tampered row, and the
 * reads built on it (a run's call counts, the audit's calls per hour with window edges that
 * cut an hour) equal the same sums taken straight from the calls.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { applyMigrations, MIGRATIONS, openPool, type Database } from '../src/db/index.js';
import { callCounts, callTotalsMismatch, compactCallTotals, foldCommittedUnits, generateCallsPerHour } from '../src/distributed/call-totals.js';
import { CALL_COLUMNS } from '../src/distributed/ledger-rows.js';
import { OUTCOME_UNKNOWN } from '../src/ledger/call-intents.js';
import { freshSchema, skipWithoutPostgres, type TestSchema } from '../src/test-support/postgres.js';

const skip = await skipWithoutPostgres('call_totals');

const HOUR = Date.UTC(2026, 10, 3, 14);
const at = (minutes: number): string => new Date(HOUR + minutes * 60_000).toISOString();

/** A call row in CALL_COLUMNS order; `over` replaces fields (record fields go in `record`). */
function row(n: number, over: Partial<Record<(typeof CALL_COLUMNS)[number], unknown>> = {}): unknown[] {
  const usageMissing = n % 7 === 3;
  const base: Record<string, unknown> = {
    run_id: n % 3 === 0 ? 'r2' : 'r1', call_id: `c${n}`, unit_key: `u${n % 5}`, attempt_id: `a${n % 5}`, state: n % 4 === 0 ? 'interrupted' : 'committed',
    case_id: `case${n % 5}`, arm: 'candidate', epoch: 0, role: n % 6 === 1 ? 'judge' : 'generate', model: 'sim-small',
    prompt_tokens: 10, completion_tokens: n % 11 === 5 ? null : 3 + (n % 9), total_tokens: usageMissing ? null : 13 + (n % 9), cost_usd: null, latency_ms: 5,
    status: 200, usage_missing: usageMissing, ts: at((n * 7) % 150), paths: 1 + (n % 2),
    record: JSON.stringify(n % 10 === 2 ? { note: OUTCOME_UNKNOWN, reserved_tokens: 100 + n } : { n }),
  };
  return CALL_COLUMNS.map((c) => (c in over ? over[c] : base[c]));
}

async function insert(db: Database, rows: unknown[][], suffix = ''): Promise<void> {
  const values: unknown[] = [];
  const tuples = rows.map((r) => `(${r.map((v) => `$${values.push(v)}`).join(', ')})`);
  await db.query(`INSERT INTO calls (${CALL_COLUMNS.join(', ')}) VALUES ${tuples.join(', ')} ${suffix}`, values);
}

/** What `analyze --db` read before call_totals: the calls themselves. */
async function countsFromCalls(db: Database, runId: string): Promise<Record<string, number>> {
  const { rows } = await db.query<Record<string, string>>(
    `SELECT count(*) FILTER (WHERE state = 'committed') AS committed, count(*) FILTER (WHERE state <> 'committed') AS spent_unused,
            count(*) FILTER (WHERE state <> 'committed' AND record->>'note' = $2) AS outcome_unknown,
            COALESCE(sum(total_tokens) FILTER (WHERE state <> 'committed'), 0) AS spent_unused_tokens,
            COALESCE(sum((record->>'reserved_tokens')::bigint) FILTER (WHERE state <> 'committed' AND record->>'note' = $2), 0) AS outcome_unknown_max_tokens
       FROM calls WHERE run_id = $1`,
    [runId, OUTCOME_UNKNOWN],
  );
  return Object.fromEntries(Object.entries(rows[0] ?? {}).map(([k, v]) => [k, Number(v)]));
}

/** What `audit --db` read before call_totals: committed generate calls in the window, per hour, and outside. */
async function hoursFromCalls(db: Database, since: string, until: string): Promise<{ hours: unknown[]; outside: number }> {
  const { rows } = await db.query(
    `SELECT (EXTRACT(EPOCH FROM date_trunc('hour', ts, 'UTC')) * 1000)::float8 AS time, count(*)::int AS n,
            (count(*) FILTER (WHERE NOT usage_missing AND completion_tokens IS NOT NULL))::int AS known,
            COALESCE(sum(completion_tokens) FILTER (WHERE NOT usage_missing), 0)::float8 AS completion,
            COALESCE(sum(paths) FILTER (WHERE NOT usage_missing AND completion_tokens IS NOT NULL), 0)::float8 AS outputs
       FROM calls WHERE state = 'committed' AND role = 'generate' AND ts BETWEEN $1 AND $2 GROUP BY 1 ORDER BY 1`,
    [since, until],
  );
  const outside = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM calls WHERE state = 'committed' AND role = 'generate' AND ts NOT BETWEEN $1 AND $2`, [since, until]);
  return { hours: rows, outside: outside.rows[0]?.n ?? 0 };
}

describe.skipIf(skip)('call_totals against the calls', () => {
  let schema: TestSchema;
  let db: Database;
  beforeAll(async () => {
    schema = await freshSchema('tot');
    db = openPool(schema.url, { applicationName: 'call totals test', max: 4 });
  });
  afterAll(async () => {
    await db?.end();
    await schema?.drop();
  });

  test('0005 sums a database the previous version filled; every write keeps it; reads equal the calls\' own sums', async () => {
    // The previous version's schema, with calls in it.
    const before = MIGRATIONS.filter((m) => m.id < '0005');
    expect(await applyMigrations(db, before)).toEqual(before.map((m) => m.id));
    await insert(db, Array.from({ length: 60 }, (_, i) => row(i)));
    expect(await applyMigrations(db, MIGRATIONS)).toEqual(['0005-call-totals', '0006-results-ts']);
    expect(await callTotalsMismatch(db)).toBeUndefined();

    // The ledger's statements: intents in flight, the commit's upsert over them, the sweeps, a delete.
    await insert(db, Array.from({ length: 30 }, (_, i) => row(100 + i, { state: 'in_flight', ts: at(60 + i) })));
    await insert(db, Array.from({ length: 20 }, (_, i) => row(100 + i, { state: 'committed', ts: at(60 + i), total_tokens: 40 + i })), 'ON CONFLICT (run_id, call_id) DO UPDATE SET state = EXCLUDED.state, total_tokens = EXCLUDED.total_tokens, record = EXCLUDED.record');
    await db.query(`UPDATE calls SET state = 'interrupted' WHERE state = 'in_flight' AND call_id < 'c125'`);
    await db.query(`DELETE FROM calls WHERE state = 'in_flight'`);
    await db.query(`UPDATE calls SET completion_tokens = completion_tokens + 1 WHERE call_id LIKE 'c1%'`);
    expect(await callTotalsMismatch(db)).toBeUndefined();
    expect(await callTotalsMismatch(db, 'r1')).toBeUndefined();
    // r1 finishes: its unit rows fold into hours; a late write lands on a unit row again.
    const rowsOf = async (run: string): Promise<number> => Number((await db.query(`SELECT count(*) AS n FROM call_totals WHERE run_id = $1 AND unit_key <> ''`, [run])).rows[0]?.n);
    expect(await rowsOf('r1')).toBeGreaterThan(0);
    await compactCallTotals(db, 'r1');
    expect(await rowsOf('r1')).toBe(0);
    await db.query(`UPDATE calls SET state = 'interrupted', total_tokens = 7 WHERE call_id = 'c101'`);
    expect(await rowsOf('r1')).toBeGreaterThan(0);
    expect(await callTotalsMismatch(db)).toBeUndefined();
    // r2 still running: the supervisor folds the rows of its committed unit, not those of units in flight.
    await db.query(`INSERT INTO runs (run_id, experiment, status, split, config_hash, inputs, manifest, units_planned, lease_seconds) VALUES ('r2', 'x', 'running', 'val', 'h', '{}', '{}', 2, 60)`);
    await db.query(`INSERT INTO units (run_id, unit_key, seq, split, case_id, arm, epoch, state) VALUES ('r2', 'u1', 1, 'val', 'case1', 'candidate', 0, 'committed'), ('r2', 'u2', 2, 'val', 'case2', 'candidate', 0, 'active')`);
    const unitRows = async (unit: string): Promise<number> => Number((await db.query(`SELECT count(*) AS n FROM call_totals WHERE run_id = 'r2' AND unit_key = $1`, [unit])).rows[0]?.n);
    expect(Math.min(await unitRows('u1'), await unitRows('u2'))).toBeGreaterThan(0);
    const u2Before = await unitRows('u2');
    expect(await foldCommittedUnits(db)).toBeGreaterThan(0);
    expect([await unitRows('u1'), await unitRows('u2')]).toEqual([0, u2Before]);
    expect(await callTotalsMismatch(db)).toBeUndefined();

    for (const run of ['r1', 'r2', 'nothing']) expect({ run, ...(await callCounts(db, run)) }).toEqual({ run, ...(await countsFromCalls(db, run)) });
    expect((await callCounts(db, 'r1')).outcome_unknown).toBeGreaterThan(0);

    // Windows whose edges cut an hour's rows (the calls there are summed from `calls`), or do not.
    const windows: Array<[string, string]> = [
      [at(-600), at(600)], [at(20), at(600)], [at(-600), at(75)], [at(20), at(40)], [at(61), at(61)], [at(0), at(59.99)], [at(200), at(300)],
    ];
    for (const [since, until] of windows) {
      const fromTotals = await generateCallsPerHour(db, since, until);
      expect({ since, until, ...fromTotals }).toEqual({ since, until, ...(await hoursFromCalls(db, since, until)) });
    }
    expect((await generateCallsPerHour(db, at(20), at(600))).outside).toBeGreaterThan(0);
  });

  test('a change the triggers did not see is named by the check', async () => {
    expect(await callTotalsMismatch(db)).toBeUndefined();
    await db.query('ALTER TABLE calls DISABLE TRIGGER calls_totals_update');
    try {
      await db.query(`UPDATE calls SET total_tokens = total_tokens + 5 WHERE call_id = 'c1'`);
    } finally {
      await db.query('ALTER TABLE calls ENABLE TRIGGER calls_totals_update');
    }
    const problem = await callTotalsMismatch(db);
    expect(problem).toMatch(/^call_totals of run r1 \(judge, committed, hour .*\) hold .*, its calls sum to /);
    expect(await callTotalsMismatch(db, 'r2')).toBeUndefined();
  });
});
