/**
 * A fleet larger than the server's connection table (the 20 workers × 8 against
 * max_connections 100, scaled down on a private cluster: 5 workers × 8, pools of 20 each,
 * against max_connections 25). A worker that cannot get a connection says "too many
 * connections" with its pool size (exit 2), never "is PostgreSQL running?" or a stack; the
 * workers that did connect back off on 53300 and go on; no unit is left behind.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { privateClusterUnavailable, startPrivateCluster, type PrivateCluster } from '../src/test-support/private-cluster.js';
import { runCli } from './support/cli.js';
import { count, simProject } from './support/team.js';

const unavailable = privateClusterUnavailable();
if (unavailable) process.stderr.write(`skipped: a low max_connections needs a private PostgreSQL cluster: ${unavailable}\n`);

describe.skipIf(unavailable !== undefined)('max_connections exhausted', () => {
  let cluster: PrivateCluster;
  beforeAll(async () => {
    cluster = await startPrivateCluster({ max_connections: 25, superuser_reserved_connections: 0 });
  }, 60_000);
  afterAll(() => cluster?.destroy());

  test('5 workers × 8 against max_connections 25: a clear message, and every unit committed', async () => {
    expect((await runCli(['db', 'migrate', '--db', cluster.url])).code).toBe(0);
    const dir = simProject('conns', 20);
    expect((await runCli(['run', 'experiment.yaml', '--db', cluster.url, '--distributed', '--detach', '--run-id', 'mc'], { cwd: dir })).code).toBe(0);
    const workers = await Promise.all(Array.from({ length: 5 }, () => runCli(['worker', '--db', cluster.url, '--until-idle', '--concurrency', '8', '--sim-latency-scale', '2'], { cwd: dir })));
    let refused = 0;
    for (const worker of workers) {
      expect(worker.stderr).not.toMatch(/internal error|\n\s+at |is PostgreSQL running/);
      if (worker.code === 2) {
        refused += 1;
        expect(worker.stderr).toMatch(/too many connections \(SQLSTATE 53300: the server's max_connections is used up\)\n {2}hint: this process opens up to 20 connections \(its pool\)/);
      } else expect(worker.code, worker.stderr).toBe(0);
    }
    // Pools of 20 against 25 slots: the fleet cannot all be connected at once.
    const sawFull = refused > 0 || workers.some((w) => /too many connections/.test(w.stderr));
    expect(sawFull).toBe(true);
    expect(refused).toBeLessThan(5);
    const client = new pg.Client({ connectionString: cluster.url });
    await client.connect();
    expect(await count(client, `SELECT count(*)::int AS n FROM results WHERE run_id = 'mc'`)).toBe(80);
    expect(await count(client, `SELECT count(*)::int AS n FROM units WHERE run_id = 'mc' AND state <> 'committed'`)).toBe(0);
    await client.end();
    const waited = await runCli(['runs', 'wait', 'mc', '--db', cluster.url, '--json'], { cwd: dir });
    expect(waited.code, waited.stderr).toBe(0);
  }, 120_000);
});
