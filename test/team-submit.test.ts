/**
 * Submission is one transaction: a submitter killed at any point leaves the run absent or
 * whole, and a re-submit of the id yields a complete run with the embedded run's results;
 * two re-submits at once queue each unit once; two submitters of one new id: one wins, the
 * other is exit 2 with one line.
 */
import { spawn } from 'node:child_process';
import { cpSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { freshSchema, skipWithoutPostgres, type TestSchema } from '../src/test-support/postgres.js';
import { BIN, runCli } from './support/cli.js';
import { count, resultsByUnit, simProject, until } from './support/team.js';

const skip = await skipWithoutPostgres('team submission');
const CASES = 20;
const UNITS = CASES * 4;

describe.skipIf(skip)('atomic, idempotent submission', () => {
  let schema: TestSchema;
  let client: pg.Client;
  let dir: string;
  beforeAll(async () => {
    schema = await freshSchema('sub');
    client = new pg.Client({ connectionString: schema.url });
    await client.connect();
    expect((await runCli(['db', 'migrate', '--db', schema.url])).code).toBe(0);
    dir = simProject('sub', CASES);
  });
  afterAll(async () => {
    await client?.query(`DROP SCHEMA IF EXISTS ${schema.schema}_jobs CASCADE`);
    await client?.end();
    await schema?.drop();
  });

  const liveJobsPerUnit = async (runId: string): Promise<number[]> =>
    (await client.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${schema.schema}_jobs.job WHERE data->>'run_id' = $1 AND state < 'completed' GROUP BY data->>'unit_key'`, [runId])).rows.map((r) => r.n);

  test('a submitter killed at a random point: absent or whole; the re-submit completes with the embedded results', async () => {
    const embedded = await runCli(['run', 'experiment.yaml', '--run-id', 'emb', '--json', '--no-report', '--sim-latency-scale', '0'], { cwd: dir });
    expect(embedded.code, embedded.stderr).toBe(0);
      const TRIALS = 2;
    for (let trial = 0; trial < TRIALS; trial += 1) {
      const runId = `cut${trial}`;
      // Trial 0 dies inside the open transaction (its units insert waits on a lock this test
      // holds, after the run row went in); the others at a random moment of the submission.
      const blocker = trial === 0 ? new pg.Client({ connectionString: schema.url }) : undefined;
      if (blocker) {
        await blocker.connect();
        await blocker.query('BEGIN');
        await blocker.query('LOCK TABLE units IN EXCLUSIVE MODE');
      }
      const child = spawn(process.execPath, [BIN, 'run', 'experiment.yaml', '--db', schema.url, '--distributed', '--detach', '--run-id', runId], { cwd: dir, stdio: 'ignore' });
      const exited = new Promise((resolve) => child.on('close', resolve));
      if (blocker) expect(await until(async () => (await count(client, `SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = 'isobudget run --distributed' AND wait_event_type = 'Lock'`)) > 0)).toBe(true);
      else await new Promise((resolve) => setTimeout(resolve, 500 + Math.random() * 3000));
      child.kill('SIGKILL');
      await exited;
      if (blocker) {
        await blocker.query('ROLLBACK');
        await blocker.end();
      }
      const units = await count(client, 'SELECT count(*)::int AS n FROM units WHERE run_id = $1', [runId]);
      const row = await count(client, 'SELECT count(*)::int AS n FROM runs WHERE run_id = $1', [runId]);
      // Absent or whole: never a run row with some of its units, never units without their jobs.
      expect([row, units]).toSatisfy(([r, u]: number[]) => (r === 0 && u === 0) || (r === 1 && u === UNITS));
      if (row === 1) expect(await liveJobsPerUnit(runId)).toEqual(Array(UNITS).fill(1));
      if (trial === 0) expect(row).toBe(0);
      // A run cut before it landed is not in the database: waiting for it is one line, exit 2.
      if (row === 0) expect((await runCli(['runs', 'wait', runId, '--db', schema.url], { cwd: dir })).code).toBe(2);
      const again = await runCli(['run', 'experiment.yaml', '--db', schema.url, '--distributed', '--detach', '--run-id', runId], { cwd: dir });
      expect(again.code, again.stderr).toBe(0);
      expect(await liveJobsPerUnit(runId)).toEqual(Array(UNITS).fill(1));
    }
    const worker = runCli(['worker', '--db', schema.url, '--until-idle', '--concurrency', '8', '--sim-latency-scale', '0'], { cwd: dir });
    for (const trial of [0, TRIALS - 1]) {
      const waited = await runCli(['runs', 'wait', `cut${trial}`, '--db', schema.url, '--json'], { cwd: dir });
      expect(waited.code, waited.stderr).toBe(0);
      const a = resultsByUnit(join(dir, 'runs', 'emb', 'results.jsonl'));
      const b = resultsByUnit(join(dir, 'runs', `cut${trial}`, 'results.jsonl'));
      expect(b.size).toBe(UNITS);
      for (const [key, record] of a) expect(b.get(key), key).toBe(record);
    }
    expect((await worker).code).toBe(0);
  }, 120_000);

  test('two re-submits at once of a run whose jobs were lost queue each unit once', async () => {
    expect((await runCli(['run', 'experiment.yaml', '--db', schema.url, '--distributed', '--detach', '--run-id', 'twice'], { cwd: dir })).code).toBe(0);
    await client.query(`DELETE FROM ${schema.schema}_jobs.job WHERE data->>'run_id' = 'twice'`);
    // Both re-submits held at their first touch of the units table, then let go together.
    const blocker = new pg.Client({ connectionString: schema.url });
    await blocker.connect();
    await blocker.query('BEGIN');
    await blocker.query('LOCK TABLE units IN ACCESS EXCLUSIVE MODE');
    const running = [1, 2].map(() => runCli(['run', 'experiment.yaml', '--db', schema.url, '--distributed', '--detach', '--run-id', 'twice'], { cwd: dir }));
    expect(await until(async () => (await count(client, `SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = 'isobudget run --distributed' AND wait_event_type = 'Lock'`)) === 2)).toBe(true);
    await blocker.query('ROLLBACK');
    await blocker.end();
    const both = await Promise.all(running);
    for (const out of both) expect(out.code, out.stderr).toBe(0);
    expect(await liveJobsPerUnit('twice')).toEqual(Array(UNITS).fill(1));
    await client.query(`DELETE FROM ${schema.schema}_jobs.job WHERE data->>'run_id' = 'twice'`);
  });

  test('two submitters of one new id: one wins, the other is exit 2 with one line', async () => {
    const copies = [1, 2].map(() => {
      const copy = mkdtempSync(join(tmpdir(), 'isobudget-sub2-'));
      cpSync(dir, copy, { recursive: true, filter: (path) => !path.includes('/runs') });
      return copy;
    });
    const outs = await Promise.all(copies.map((cwd) => runCli(['run', 'experiment.yaml', '--db', schema.url, '--distributed', '--detach', '--run-id', 'race'], { cwd })));
    const codes = outs.map((o) => o.code).sort();
    expect(codes, outs.map((o) => o.stderr).join('\n')).toEqual([0, 2]);
    const loser = outs.find((o) => o.code === 2)!;
    // Lost inside the transaction (the id taken while it ran) or before it (the id seen taken, with this copy's config).
    expect(loser.stderr).toMatch(/^isobudget run: (run race is already in the database \(another submitter took this id first\)|\S+: run race in the database was submitted with another config \(config hash differs\))\n {2}hint: /);
    expect(loser.stderr.trim().split('\n')).toHaveLength(2);
    expect(await liveJobsPerUnit('race')).toEqual(Array(UNITS).fill(1));
    await client.query(`DELETE FROM ${schema.schema}_jobs.job WHERE data->>'run_id' = 'race'`);
  });
});
