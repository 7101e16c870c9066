/**
 * Attempts, dead letters and the operator's commands on a real PostgreSQL: a worker that
 * refuses a run (a differing code file, another isobudget version) hands its unit back
 * without using an attempt, however often it restarts; a unit out of attempts is listed with
 * its last error and `runs requeue --failed` gives it new ones; `runs cancel` stops the
 * workers' units (their calls booked interrupted); `runs status` and `workers list` show it.
 */
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type pg from 'pg';
import { describe, expect, test } from 'vitest';
import { skipWithoutPostgres, type TestSchema } from '../src/test-support/postgres.js';
import { runCli } from './support/cli.js';
import { count, simProject, slowAgentProject, until, useMigratedSchema } from './support/team.js';

const skip = await skipWithoutPostgres('team control');

describe.skipIf(skip)('attempts, dead letters, status, cancel', () => {
  let schema: TestSchema;
  let client: pg.Client;
  let jobs: string;
  useMigratedSchema('ctl', (s, c) => {
    schema = s;
    client = c;
    jobs = `${schema.schema}_jobs.job`;
  });

  test('refusals use no attempt: a mismatched worker restarting in a loop, then another version; a good worker completes the run', async () => {
    const dir = slowAgentProject('refuse', 1, 0);
    expect((await runCli(['run', 'experiment.yaml', '--db', schema.url, '--distributed', '--detach', '--run-id', 'ref'], { cwd: dir })).code).toBe(0);
    const bad = mkdtempSync(join(tmpdir(), 'isobudget-bad-'));
    cpSync(dir, bad, { recursive: true });
    writeFileSync(join(bad, 'agent.mjs'), `${readFileSync(join(bad, 'agent.mjs'), 'utf8')}\n// edited\n`);
    for (let restart = 0; restart < 5; restart += 1) {
      const refused = await runCli(['worker', '--db', schema.url, '--until-idle'], { cwd: bad });
      expect(refused.code).toBe(2);
      expect(refused.stderr).toMatch(/run ref: agent\.mjs differs on this worker \(sha256 mismatch\)/);
    }
    await client.query(`UPDATE runs SET manifest = jsonb_set(manifest, '{tool,version}', '"0.0.1-other"') WHERE run_id = 'ref'`);
    const other = await runCli(['worker', '--db', schema.url, '--until-idle'], { cwd: dir });
    expect(other.code).toBe(2);
    expect(other.stderr).toMatch(/run ref was submitted by isobudget 0\.0\.1-other; this worker is isobudget \d+\.\d+\.\d+\S*\n {2}hint: run workers of isobudget 0\.0\.1-other/);
    await client.query(`UPDATE runs SET manifest = jsonb_set(manifest, '{tool,version}', to_jsonb((SELECT version FROM workers LIMIT 1))) WHERE run_id = 'ref'`);
    expect(await count(client, `SELECT COALESCE(max(retry_count), 0)::int AS n FROM ${jobs} WHERE data->>'run_id' = 'ref'`)).toBe(0);
    expect(await count(client, `SELECT count(*)::int AS n FROM ${jobs} WHERE data->>'run_id' = 'ref' AND state IN ('created', 'retry')`)).toBe(4);
    const good = runCli(['worker', '--db', schema.url, '--until-idle'], { cwd: dir });
    const waited = await runCli(['runs', 'wait', 'ref', '--db', schema.url, '--json'], { cwd: dir });
    expect(waited.code, waited.stderr).toBe(0);
    expect((await good).code).toBe(0);
  });

  test('a unit out of attempts is listed with its last error; runs requeue --failed gives it new attempts', async () => {
    const dir = slowAgentProject('dead', 1, 0);
    expect((await runCli(['run', 'experiment.yaml', '--db', schema.url, '--distributed', '--detach', '--run-id', 'dl'], { cwd: dir })).code).toBe(0);
    // One unit whose case is not in the stored inputs: it fails every time it runs.
    const victim = (await client.query<{ unit_key: string; case_id: string }>(`SELECT unit_key, case_id FROM units WHERE run_id = 'dl' ORDER BY seq LIMIT 1`)).rows[0]!;
    await client.query(`UPDATE units SET case_id = 'no-such-case' WHERE run_id = 'dl' AND unit_key = $1`, [victim.unit_key]);
    const worker = await runCli(['worker', '--db', schema.url, '--until-idle', '--dead-after', '2'], { cwd: dir });
    expect(worker.code, worker.stderr).toBe(0);
    expect(worker.stderr).toMatch(/failed \(attempt 4, out of attempts\): run dl: unit .* is not in the stored inputs/);
    const waited = await runCli(['runs', 'wait', 'dl', '--db', schema.url], { cwd: dir });
    expect(waited.code).toBe(2);
    expect(waited.stderr).toMatch(/1 unit\(s\) failed on every attempt, e\.g\. \S+: run dl: unit \S+ is not in the stored inputs/);
    expect(waited.stderr).toContain('isobudget runs requeue dl --failed --db URL');
    const status = await runCli(['runs', 'status', 'dl', '--db', schema.url, '--json'], { cwd: dir });
    expect(status.code, status.stderr).toBe(0);
    const parsed = JSON.parse(status.stdout) as { units: Record<string, number>; failed: Array<{ unit_key: string; last_error: string }>; tokens_so_far: number; workers: unknown[] };
    expect(parsed.units).toEqual({ queued: 0, active: 0, committed: 3, failed: 1, cancelled: 0 });
    expect(parsed.failed).toEqual([{ unit_key: victim.unit_key, last_error: expect.stringContaining('is not in the stored inputs') }]);
    expect(parsed.tokens_so_far).toBeGreaterThan(0);
    expect(parsed.workers).toHaveLength(1);
    const text = await runCli(['runs', 'status', 'dl', '--db', schema.url], { cwd: dir });
    expect(text.stdout).toMatch(/^run dl: interrupted; 3\/4 committed, 0 active, 0 queued, 1 failed, 0 cancelled\n/);
    expect(text.stdout).toContain(`failed ${victim.unit_key}: run dl: unit ${victim.unit_key} is not in the stored inputs`);
    await client.query(`UPDATE units SET case_id = $2 WHERE run_id = 'dl' AND unit_key = $1`, [victim.unit_key, victim.case_id]);
    expect((await runCli(['runs', 'requeue', 'dl', '--db', schema.url], { cwd: dir })).stdout).toBe('run dl: 0 unit(s) queued, 3 already committed\n');
    expect((await runCli(['runs', 'requeue', 'dl', '--db', schema.url, '--failed'], { cwd: dir })).stdout).toBe('run dl: 1 unit(s) queued, 3 already committed\n');
    const again = runCli(['worker', '--db', schema.url, '--until-idle'], { cwd: dir });
    expect((await runCli(['runs', 'wait', 'dl', '--db', schema.url, '--json'], { cwd: dir })).code).toBe(0);
    expect((await again).code).toBe(0);
    expect(await count(client, `SELECT count(*)::int AS n FROM runs WHERE run_id = 'dl' AND status = 'complete'`)).toBe(1);
  });

  test('runs cancel: workers abort its units (calls interrupted), take no more; workers list shows them', async () => {
    const dir = slowAgentProject('cancel', 2, 30_000);
    expect((await runCli(['run', 'experiment.yaml', '--db', schema.url, '--distributed', '--detach', '--run-id', 'cx'], { cwd: dir })).code).toBe(0);
    const worker = runCli(['worker', '--db', schema.url, '--until-idle', '--concurrency', '4', '--dead-after', '2'], { cwd: dir });
    expect(await until(async () => (await count(client, `SELECT count(DISTINCT unit_key)::int AS n FROM calls WHERE run_id = 'cx' AND state = 'in_flight'`)) === 4)).toBe(true);
    const listed = await runCli(['workers', 'list', '--db', schema.url, '--json']);
    expect(listed.code, listed.stderr).toBe(0);
    expect(JSON.parse(listed.stdout)).toContainEqual(expect.objectContaining({ alive: true, state: 'live', units: 4, concurrency: 4 }));
    const running = await runCli(['runs', 'status', 'cx', '--db', schema.url, '--json']);
    const live = JSON.parse(running.stdout) as { units: Record<string, number>; leases: unknown[]; oldest_active: unknown };
    expect(live.units['active']).toBe(4);
    expect(live.leases).toHaveLength(4);
    expect(live.oldest_active).not.toBeNull();
    const cancelled = await runCli(['runs', 'cancel', 'cx', '--db', schema.url]);
    expect(cancelled.stdout).toMatch(/^run cx: cancelled; 8 open unit\(s\) cancelled, 4 of them aborted/);
    // The worker aborts at its next beat (30 s agents would otherwise hold it), then finds nothing to take.
    const stopped = await worker;
    expect(stopped.code, stopped.stderr).toBe(0);
    expect(stopped.stderr).toContain('0 unit(s) committed');
    expect(await count(client, `SELECT count(*)::int AS n FROM calls WHERE run_id = 'cx' AND state = 'in_flight'`)).toBe(0);
    expect(await count(client, `SELECT count(*)::int AS n FROM calls WHERE run_id = 'cx' AND state = 'interrupted'`)).toBeGreaterThanOrEqual(4);
    expect(await count(client, `SELECT count(*)::int AS n FROM results WHERE run_id = 'cx'`)).toBe(0);
    const waited = await runCli(['runs', 'wait', 'cx', '--db', schema.url]);
    expect(waited.code).toBe(2);
    expect(waited.stderr).toContain('it was cancelled');
  }, 60_000);

  test('fair across runs: a small run submitted behind a large one is served round-robin, not after it', async () => {
    const big = simProject('big', 10);
    const small = simProject('small', 2);
    expect((await runCli(['run', 'experiment.yaml', '--db', schema.url, '--distributed', '--detach', '--run-id', 'big'], { cwd: big })).code).toBe(0);
    expect((await runCli(['run', 'experiment.yaml', '--db', schema.url, '--distributed', '--detach', '--run-id', 'small'], { cwd: small })).code).toBe(0);
    // One lane: units run one at a time, in the queue's order.
    const worker = await runCli(['worker', '--db', schema.url, '--until-idle', '--concurrency', '1', '--sim-latency-scale', '0'], { cwd: big });
    expect(worker.code, worker.stderr).toBe(0);
    const order = (await client.query<{ run_id: string }>(`SELECT run_id FROM units WHERE run_id IN ('big', 'small') ORDER BY committed_at`)).rows.map((r) => r.run_id);
    expect(order).toHaveLength(48);
    // Round-robin: the small run's 8 units are done within the first 16 (FIFO would put them at 41–48).
    expect(order.lastIndexOf('small')).toBeLessThan(16);
  });
});
