/**
 * The database going away mid-run, on a private PostgreSQL 15 cluster the test starts (the
 * shared server is never restarted): a restart and a cut of every worker session
 * (pg_terminate_backend) while a submitter waits and two workers run. Nobody crashes, the
 * workers take new units afterwards, and the results are the embedded run's.
 */
import pg from 'pg';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { privateClusterUnavailable, startPrivateCluster, type PrivateCluster } from '../src/test-support/private-cluster.js';
import { runCli } from './support/cli.js';
import { count, resultsByUnit, simProject, until } from './support/team.js';

const unavailable = privateClusterUnavailable();
if (unavailable) process.stderr.write(`skipped: database restarts need a private PostgreSQL cluster: ${unavailable}\n`);

describe.skipIf(unavailable !== undefined)('a PostgreSQL restart mid-run', () => {
  let cluster: PrivateCluster;
  beforeAll(async () => {
    cluster = await startPrivateCluster();
  }, 60_000);
  afterAll(() => cluster?.destroy());

  test('submitter and workers survive a restart and cut sessions; results identical to embedded', async () => {
    expect((await runCli(['db', 'migrate', '--db', cluster.url])).code).toBe(0);
    const dir = simProject('restart', 20);
    const embedded = await runCli(['run', 'experiment.yaml', '--run-id', 'emb', '--json', '--no-report', '--sim-latency-scale', '0'], { cwd: dir });
    expect(embedded.code, embedded.stderr).toBe(0);
    const submitter = runCli(['run', 'experiment.yaml', '--db', cluster.url, '--distributed', '--run-id', 'rs', '--json', '--quiet'], { cwd: dir });
    const client = new pg.Client({ connectionString: cluster.url });
    await client.connect();
    client.on('error', () => {});
    expect(await until(async () => (await count(client, `SELECT count(*)::int AS n FROM units WHERE run_id = 'rs'`)) === 80)).toBe(true);
    // Slow units (simulator latency × 20) so that the run is mid-way when the server goes.
    const workers = [1, 2].map(() => runCli(['worker', '--db', cluster.url, '--until-idle', '--concurrency', '4', '--dead-after', '5', '--sim-latency-scale', '20'], { cwd: dir }));
    expect(await until(async () => (await count(client, `SELECT count(*)::int AS n FROM results WHERE run_id = 'rs'`)) >= 5)).toBe(true);
    await client.end();
    cluster.restart(1500);
    const after = new pg.Client({ connectionString: cluster.url });
    await after.connect();
    const atRestart = await count(after, `SELECT count(*)::int AS n FROM results WHERE run_id = 'rs'`);
    expect(atRestart).toBeLessThan(80);
    // Then every worker session cut at once, once they are back at work.
    expect(await until(async () => (await count(after, `SELECT count(*)::int AS n FROM results WHERE run_id = 'rs'`)) > atRestart)).toBe(true);
    const cutAt = (await after.query<{ at: Date }>('SELECT now() AS at')).rows[0]!.at;
    const cut = await count(after, `SELECT count(pg_terminate_backend(pid))::int AS n FROM pg_stat_activity WHERE application_name = 'isobudget worker'`);
    expect(cut).toBeGreaterThan(0);
    const afterCut = await count(after, `SELECT count(*)::int AS n FROM results WHERE run_id = 'rs'`);
    const done = await submitter;
    const finished = await Promise.all(workers);
    expect(done.code, done.stderr).toBe(0);
    expect(done.stderr).toMatch(/database unreachable/);
    expect(done.stderr).toMatch(/database back after/);
    for (const worker of finished) {
      expect(worker.code, worker.stderr).toBe(0);
      expect(worker.stderr).not.toMatch(/internal error|\n\s+at /);
    }
    // Workers came back and took units after the cut (no zombie: a worker that took none would still exit, but the run would not finish).
    const takenAfterCut = await count(after, `SELECT count(DISTINCT worker_id)::int AS n FROM units WHERE run_id = 'rs' AND state = 'committed' AND started_at > $1`, [cutAt]);
    expect(await count(after, `SELECT count(*)::int AS n FROM results WHERE run_id = 'rs'`)).toBe(80);
    expect(afterCut).toBeLessThan(80);
    expect(takenAfterCut).toBeGreaterThanOrEqual(1);
    await after.end();
    const a = resultsByUnit(join(dir, 'runs', 'emb', 'results.jsonl'));
    const b = resultsByUnit(join(dir, 'runs', 'rs', 'results.jsonl'));
    expect(b.size).toBe(a.size);
    for (const [key, record] of a) expect(b.get(key), key).toBe(record);
  }, 120_000);
});
