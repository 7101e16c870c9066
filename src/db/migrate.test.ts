import pg from 'pg';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { freshSchema, skipWithoutPostgres, type TestSchema } from '../test-support/postgres.js';
import { IsobudgetError } from '../core/errors.js';
import { describeDatabase, openPool } from './connect.js';
import { applyMigrations, requireCurrentSchema, schemaStatus } from './migrate.js';
import { MIGRATIONS } from './migrations/index.js';
import type { Database, Migration } from './spec.js';

const skip = await skipWithoutPostgres('db migrations');

const FIRST: Migration = { id: '0001-widgets', description: 'widgets', sql: 'CREATE TABLE widgets (id INT PRIMARY KEY)' };
const SECOND: Migration = { id: '0002-gadgets', description: 'gadgets', sql: 'CREATE TABLE gadgets (id INT PRIMARY KEY); INSERT INTO gadgets VALUES (1)' };

describe.skipIf(skip)('migrations on a real PostgreSQL', () => {
  let schema: TestSchema;
  let db: Database;
  beforeAll(async () => {
    schema = await freshSchema('mig');
    db = openPool(schema.url, { applicationName: 'isobudget test', max: 8 });
  });
  afterAll(async () => {
    await db?.end();
    await schema?.drop();
  });

  test('apply in order, once; status shows pending, then nothing', async () => {
    expect((await schemaStatus(db, [FIRST, SECOND])).pending.map((m) => m.id)).toEqual(['0001-widgets', '0002-gadgets']);
    const behind = await requireCurrentSchema(db, [FIRST], 'db').catch((e: unknown) => e);
    expect((behind as IsobudgetError).message).toBe('db needs 1 migration(s): 0001-widgets');
    expect((behind as IsobudgetError).hint).toContain('isobudget db migrate --db URL');
    expect(await applyMigrations(db, [FIRST])).toEqual(['0001-widgets']);
    expect(await applyMigrations(db, [FIRST])).toEqual([]);
    await requireCurrentSchema(db, [FIRST], 'db');
    await expect(requireCurrentSchema(db, [FIRST, SECOND], 'db')).rejects.toBeInstanceOf(IsobudgetError);
    expect(await applyMigrations(db, [FIRST, SECOND])).toEqual(['0002-gadgets']);
    expect((await db.query('SELECT count(*)::int AS n FROM gadgets')).rows[0].n).toBe(1);
  });

  test('a database migrated by a newer build is refused', async () => {
    await expect(requireCurrentSchema(db, [FIRST], 'db')).rejects.toThrow(/newer isobudget.*0002-gadgets/s);
  });

  test('eight migrators at once apply each change exactly once', async () => {
    const third: Migration = { id: '0003-counter', description: 'counter', sql: 'CREATE TABLE counter (n INT); INSERT INTO counter VALUES (1)' };
    const all = [FIRST, SECOND, third];
    const results = await Promise.all(Array.from({ length: 8 }, () => applyMigrations(db, all)));
    expect(results.flat()).toEqual(['0003-counter']);
    expect((await db.query('SELECT count(*)::int AS n FROM counter')).rows[0].n).toBe(1);
  });

  test('a failing migration leaves nothing behind', async () => {
    const bad: Migration = { id: '0004-bad', description: 'bad', sql: 'CREATE TABLE half (id INT); SELECT no_such_function()' };
    await expect(applyMigrations(db, [FIRST, SECOND, { ...bad, id: '0003-counter' }, bad])).rejects.toThrow();
    expect((await db.query(`SELECT to_regclass('half') IS NULL AS gone`)).rows[0].gone).toBe(true);
    expect((await schemaStatus(db, [FIRST, SECOND])).unknown).toEqual(['0003-counter']);
  });
});

describe.skipIf(skip)('the shipped migrations on a database migrated before 0004', () => {
  test('0004-worker-deaths applies over 0001–0003 with data in place: old runs get 3, old units 0 deaths', async () => {
    const schema = await freshSchema('mig4');
    const db = openPool(schema.url, { applicationName: 'isobudget test', max: 2 });
    try {
      const before = MIGRATIONS.filter((m) => m.id < '0004');
      expect(await applyMigrations(db, before)).toEqual(['0001-runs', '0002-gateway', '0003-workers']);
      await db.query(`INSERT INTO runs (run_id, experiment, status, split, config_hash, inputs, manifest, units_planned, lease_seconds) VALUES ('old', 'e', 'running', 'val', 'h', '{}', '{}', 1, 900)`);
      await db.query(`INSERT INTO units (run_id, unit_key, seq, split, case_id, arm, epoch, state) VALUES ('old', 'k', 0, 'val', 'c', 'a', 0, 'active')`);
      await expect(requireCurrentSchema(db, MIGRATIONS, 'db')).rejects.toThrow('db needs 3 migration(s): 0004-worker-deaths, 0005-call-totals, 0006-results-ts');
      expect(await applyMigrations(db, MIGRATIONS)).toEqual(['0004-worker-deaths', '0005-call-totals', '0006-results-ts']);
      await requireCurrentSchema(db, MIGRATIONS, 'db');
      const row = (await db.query('SELECT r.max_worker_deaths, u.worker_deaths FROM runs r JOIN units u USING (run_id)')).rows[0];
      expect(row).toEqual({ max_worker_deaths: 3, worker_deaths: 0 });
      await expect(db.query(`UPDATE runs SET max_worker_deaths = 0`)).rejects.toThrow(/check constraint/);
    } finally {
      await db.end();
      await schema.drop();
    }
  });
});

describe.skipIf(skip)('the shipped migrations on a database migrated before 0006', () => {
  test('0006-results-ts applies over 0001–0005 with results in place; the audit window can read results by time', async () => {
    const schema = await freshSchema('mig6');
    const db = openPool(schema.url, { applicationName: 'isobudget test', max: 2 });
    try {
      const before = MIGRATIONS.filter((m) => m.id < '0006');
      expect(await applyMigrations(db, before)).toEqual(before.map((m) => m.id));
      await db.query(`INSERT INTO runs (run_id, experiment, status, split, config_hash, inputs, manifest, units_planned, lease_seconds) VALUES ('old', 'e', 'complete', 'val', 'h', '{}', '{}', 1, 900)`);
      await db.query(`INSERT INTO results (run_id, case_id, arm, epoch, split, seq, attempt_id, variant, n, passed, latency_ms, ts, record) VALUES ('old', 'c', 'a', 0, 'val', 0, 'at', 'v', 1, true, 5, '2026-01-05T10:30:00Z', '{}')`);
      expect(await applyMigrations(db, MIGRATIONS)).toEqual(['0006-results-ts']);
      await requireCurrentSchema(db, MIGRATIONS, 'db');
      // A table this small is read whole whatever the indexes; with that forbidden, the plan shows the index is there to use.
      const client = await db.connect();
      const lines = await client.query('SET enable_seqscan = off').then(() => client.query<{ 'QUERY PLAN': string }>(`EXPLAIN SELECT count(*) FROM results WHERE ts BETWEEN '2026-01-01' AND '2026-02-01'`)).then((r) => r.rows).finally(() => client.release());
      expect(lines.map((r) => r['QUERY PLAN']).join('\n')).toContain('results_ts');
    } finally {
      await db.end();
      await schema.drop();
    }
  });
});

describe('database URLs in messages', () => {
  test('never show the password or the query', () => {
    expect(describeDatabase('postgres://alice:s3cret@db.example:5432/team?password=s3cret')).toBe('postgres://alice@db.example:5432/team');
  });

  test('an unreachable server is one line, exit 2 material', async () => {
    const client = new pg.Client({ connectionString: 'postgres://x:hunter2@127.0.0.1:1/none', connectionTimeoutMillis: 500 });
    await expect(client.connect()).rejects.toThrow();
    const { openDatabase } = await import('./open.js');
    const error = await openDatabase('postgres://x:hunter2@127.0.0.1:1/none', { applicationName: 't' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(IsobudgetError);
    expect((error as IsobudgetError).message).toMatch(/^cannot connect to postgres:\/\/x@127\.0\.0\.1:1\/none: ECONNREFUSED/);
    expect((error as IsobudgetError).format()).not.toContain('hunter2');
  });
});
