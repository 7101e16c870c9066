/**
 * Unit heartbeats on a real PostgreSQL, with real worker processes: a worker killed with
 * `kill -9` costs its --dead-after, not the unit lease (here 600 s: without heartbeats the run
 * would idle ten minutes); a worker stopped with SIGTERM hands its units back without using
 * an attempt, so no number of deploys fails a run.
 */
import type { ChildProcess } from 'node:child_process';
import type pg from 'pg';
import { describe, expect, test } from 'vitest';
import { openPool } from '../src/db/index.js';
import { callTotalsMismatch } from '../src/distributed/call-totals.js';
import { skipWithoutPostgres, type TestSchema } from '../src/test-support/postgres.js';
import { runCli } from './support/cli.js';
import { count, slowAgentProject, until, useMigratedSchema } from './support/team.js';

const skip = await skipWithoutPostgres('team heartbeats');

describe.skipIf(skip)('worker heartbeats', () => {
  let schema: TestSchema;
  let client: pg.Client;
  useMigratedSchema('beat', (s, c) => {
    schema = s;
    client = c;
  });

  test('kill -9 of a worker: its units go back within --dead-after, not the 600 s lease, and use no attempt', async () => {
    const dir = slowAgentProject('beat', 2, 3000);
    expect((await runCli(['run', 'experiment.yaml', '--db', schema.url, '--distributed', '--detach', '--lease', '600', '--run-id', 'k1'], { cwd: dir })).code).toBe(0);
    let victim: ChildProcess | undefined;
    const doomed = runCli(['worker', '--db', schema.url, '--concurrency', '8', '--dead-after', '2'], { cwd: dir, onSpawn: (child) => (victim = child) });
    expect(await until(async () => (await count(client, `SELECT count(DISTINCT unit_key)::int AS n FROM calls WHERE run_id = 'k1' AND state = 'in_flight'`)) >= 4)).toBe(true);
    const held = await count(client, `SELECT count(*)::int AS n FROM units WHERE run_id = 'k1' AND state = 'active'`);
    expect(held).toBeGreaterThanOrEqual(4);
    victim!.kill('SIGKILL');
    expect((await doomed).signal).toBe('SIGKILL');
    const killedAt = Date.now();
    const rescue = runCli(['worker', '--db', schema.url, '--until-idle', '--concurrency', '8', '--dead-after', '2'], { cwd: dir });
    const waited = await runCli(['runs', 'wait', 'k1', '--db', schema.url, '--json'], { cwd: dir });
    const rescued = await rescue;
    expect(rescued.code, rescued.stderr).toBe(0);
    expect(waited.code, waited.stderr).toBe(0);
    // The bound (45 s); the lease alone would have held the units 600 s.
    expect(Date.now() - killedAt).toBeLessThan(45_000);
    expect(await count(client, `SELECT count(*)::int AS n FROM results WHERE run_id = 'k1'`)).toBe(8);
    expect(await count(client, `SELECT count(*)::int AS n FROM workers WHERE state = 'dead'`)).toBe(1);
    // The dead worker's units were re-queued, not retried: no attempt used.
    expect(await count(client, `SELECT COALESCE(max(retry_count), 0)::int AS n FROM ${schema.schema}_jobs.job WHERE data->>'run_id' = 'k1'`)).toBe(0);
    expect(await count(client, `SELECT count(*)::int AS n FROM units WHERE run_id = 'k1' AND handbacks > 0 AND last_error LIKE 'lease lapsed: worker %'`)).toBe(held);
    // Every unit records the version that ran it; the rescue's log has timestamps and a start line.
    expect(await count(client, `SELECT count(*)::int AS n FROM units WHERE run_id = 'k1' AND version IS NOT NULL`)).toBe(8);
    expect(rescued.stderr).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z worker \S+ started: isobudget \S+, pid \d+, concurrency 8, dead-after 2 s$/m);
  });

  test('SIGTERM four times mid-unit: every unit handed back without an attempt, and the run completes', async () => {
    const dir = slowAgentProject('term', 1, 1500);
    expect((await runCli(['run', 'experiment.yaml', '--db', schema.url, '--distributed', '--detach', '--run-id', 't1'], { cwd: dir })).code).toBe(0);
    for (let round = 0; round < 4; round += 1) {
      let victim: ChildProcess | undefined;
      const worker = runCli(['worker', '--db', schema.url, '--concurrency', '4'], { cwd: dir, onSpawn: (child) => (victim = child) });
      expect(await until(async () => (await count(client, `SELECT count(DISTINCT unit_key)::int AS n FROM calls WHERE run_id = 't1' AND state = 'in_flight'`)) === 4)).toBe(true);
      victim!.kill('SIGTERM');
      const stopped = await worker;
      expect(stopped.code, stopped.stderr).toBe(130);
      expect(stopped.stderr).toContain('4 handed back');
    }
    const last = runCli(['worker', '--db', schema.url, '--until-idle', '--concurrency', '4'], { cwd: dir });
    const waited = await runCli(['runs', 'wait', 't1', '--db', schema.url, '--json'], { cwd: dir });
    expect((await last).code).toBe(0);
    expect(waited.code, waited.stderr).toBe(0);
    expect(await count(client, `SELECT COALESCE(max(retry_count), 0)::int AS n FROM ${schema.schema}_jobs.job WHERE data->>'run_id' = 't1'`)).toBe(0);
    expect(await count(client, `SELECT min(handbacks)::int AS n FROM units WHERE run_id = 't1'`)).toBe(4);
    // The stopped attempts' calls were billed: kept apart as interrupted, none left in flight.
    expect(await count(client, `SELECT count(*)::int AS n FROM calls WHERE run_id = 't1' AND state = 'interrupted'`)).toBeGreaterThanOrEqual(16);
    expect(await count(client, `SELECT count(*)::int AS n FROM workers WHERE state = 'stopped'`)).toBeGreaterThanOrEqual(5);
    // Through hand-backs, interrupted calls and the heartbeats' folds: call_totals still sums the calls.
    const db = openPool(schema.url, { applicationName: 'heartbeat test', max: 2 });
    try {
      expect(await callTotalsMismatch(db)).toBeUndefined();
    } finally {
      await db.end();
    }
  });
});
