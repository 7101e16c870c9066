/**
 * A poison unit on a real PostgreSQL, with real worker processes: one unit's agent kills its
 * worker (SIGKILL, as the OOM killer or a segfault would) every time it runs. Each death
 * re-queues the unit without an attempt — the worker failed, not the unit — but the unit
 * counts them, and at the run's --max-worker-deaths (default 3) it goes to the dead letters
 * instead of taking down worker after worker: the other units commit, the workers restarted
 * in a loop (a supervisor's Restart=always) go idle, and the run ends naming the unit.
 */
import type pg from 'pg';
import { describe, expect, test } from 'vitest';
import { skipWithoutPostgres, type TestSchema } from '../src/test-support/postgres.js';
import { runCli } from './support/cli.js';
import { count, poisonAgentProject, useMigratedSchema } from './support/team.js';

const skip = await skipWithoutPostgres('team poison units');

/** Restarts of a killed worker before the test gives up (the code before the fix re-queued the unit for ever). */
const MAX_KILLS = 8;

describe.skipIf(skip)('a unit that kills every worker that takes it', () => {
  let schema: TestSchema;
  let client: pg.Client;
  useMigratedSchema('poison', (s, c) => {
    schema = s;
    client = c;
  });

  test('dead-lettered after 3 worker deaths; the other units commit; status, wait and requeue --failed name it', async () => {
    const dir = poisonAgentProject('poison', 2, 200, 'c1/candidate_single');
    expect((await runCli(['run', 'experiment.yaml', '--db', schema.url, '--distributed', '--detach', '--run-id', 'px'], { cwd: dir })).code).toBe(0);
    const poison = 'val|c1|candidate_single|0';
    let kills = 0;
    // Two worker slots, each restarting its worker when it is killed, until it exits idle.
    const slot = async (): Promise<void> => {
      while (kills <= MAX_KILLS) {
        const worker = await runCli(['worker', '--db', schema.url, '--until-idle', '--concurrency', '1', '--dead-after', '2'], { cwd: dir });
        if (worker.signal !== 'SIGKILL') {
          expect(worker.code, worker.stderr).toBe(0);
          return;
        }
        kills += 1;
      }
    };
    await Promise.all([slot(), slot()]);
    expect(kills).toBe(3);
    const unit = (await client.query<{ state: string; worker_deaths: number; attempts: number; last_error: string }>(
      `SELECT state, worker_deaths, attempts, last_error FROM units WHERE run_id = 'px' AND unit_key = $1`,
      [poison],
    )).rows[0]!;
    expect(unit).toMatchObject({ state: 'failed', worker_deaths: 3, attempts: 3 });
    expect(unit.last_error).toMatch(/^worker died while running this unit 3 times: the last, \S+, went silent past its --dead-after \(killed, out of memory or crashed\); not retried \(run --max-worker-deaths 3\); once fixed: isobudget runs requeue px --failed --db URL$/);
    expect(await count(client, `SELECT count(*)::int AS n FROM results WHERE run_id = 'px'`)).toBe(7);
    // The job is a dead letter too: nothing left for a worker to fetch.
    expect(await count(client, `SELECT count(*)::int AS n FROM ${schema.schema}_jobs.job WHERE data->>'run_id' = 'px' AND state < 'completed'`)).toBe(0);
    expect(await count(client, `SELECT count(*)::int AS n FROM workers WHERE state = 'dead'`)).toBe(3);

    const status = await runCli(['runs', 'status', 'px', '--db', schema.url, '--json'], { cwd: dir });
    expect(status.code, status.stderr).toBe(0);
    const parsed = JSON.parse(status.stdout) as { units: Record<string, number>; failed: Array<{ unit_key: string; last_error: string }> };
    expect(parsed.units).toEqual({ queued: 0, active: 0, committed: 7, failed: 1, cancelled: 0 });
    expect(parsed.failed).toEqual([{ unit_key: poison, last_error: unit.last_error }]);
    const waited = await runCli(['runs', 'wait', 'px', '--db', schema.url], { cwd: dir });
    expect(waited.code).toBe(2);
    expect(waited.stderr).toContain(`1 unit(s) failed on every attempt, e.g. ${poison}: worker died while running this unit 3 times`);
    expect(waited.stderr).not.toMatch(/\n\s+at /);

    // Requeued, the unit starts its count over (a fixed agent gets three deaths again, not one).
    expect((await runCli(['runs', 'requeue', 'px', '--db', schema.url, '--failed'], { cwd: dir })).stdout).toBe('run px: 1 unit(s) queued, 7 already committed\n');
    expect(await count(client, `SELECT worker_deaths AS n FROM units WHERE run_id = 'px' AND unit_key = $1 AND state = 'queued'`, [poison])).toBe(0);
    // Cancelled, so that no later worker takes the poison unit again.
    expect((await runCli(['runs', 'cancel', 'px', '--db', schema.url], { cwd: dir })).code).toBe(0);
  }, 90_000);

  test('workers of 4 lanes: the units that shared dying workers with the poison one are not failed with it (one suspect per worker)', async () => {
    const dir = poisonAgentProject('bystanders', 3, 1500, 'c1/candidate_single');
    expect((await runCli(['run', 'experiment.yaml', '--db', schema.url, '--distributed', '--detach', '--run-id', 'pb'], { cwd: dir })).code).toBe(0);
    let kills = 0;
    const logs: string[] = [];
    const slot = async (): Promise<void> => {
      while (kills <= MAX_KILLS) {
        const worker = await runCli(['worker', '--db', schema.url, '--until-idle', '--concurrency', '4', '--dead-after', '2'], { cwd: dir });
        logs.push(worker.stderr);
        if (worker.signal !== 'SIGKILL') {
          expect(worker.code, worker.stderr).toBe(0);
          return;
        }
        kills += 1;
      }
    };
    await Promise.all([slot(), slot()]);
    const units = (await client.query<{ unit_key: string; state: string; worker_deaths: number }>(`SELECT unit_key, state, worker_deaths FROM units WHERE run_id = 'pb' ORDER BY seq`)).rows;
    expect(units.filter((u) => u.state === 'failed').map((u) => u.unit_key)).toEqual(['val|c1|candidate_single|0']);
    expect(kills, logs.join('\n----\n')).toBe(3);
    expect(await count(client, `SELECT count(*)::int AS n FROM results WHERE run_id = 'pb'`)).toBe(11);
    // Bystanders died with the poison unit (one or two of its workers), never the third time.
    const bystanders = units.filter((u) => u.state === 'committed').map((u) => u.worker_deaths);
    expect(Math.max(...bystanders)).toBeGreaterThan(0);
    expect(Math.max(...bystanders)).toBeLessThan(3);
  }, 120_000);

  test('--max-worker-deaths: stored on the run; not a whole number ≥ 1, one line and exit 2', async () => {
    const dir = poisonAgentProject('deaths', 1, 0, 'none/none');
    const bad = await runCli(['run', 'experiment.yaml', '--db', schema.url, '--distributed', '--detach', '--max-worker-deaths', '0'], { cwd: dir });
    expect(bad.code).toBe(2);
    expect(bad.stderr.split('\n')[0]).toBe("isobudget run: --max-worker-deaths must be a whole number ≥ 1, got '0'");
    const embedded = await runCli(['run', 'experiment.yaml', '--max-worker-deaths', '2'], { cwd: dir });
    expect(embedded.code).toBe(2);
    expect(embedded.stderr.split('\n')[0]).toBe('isobudget run: --detach, --lease and --max-worker-deaths go with --distributed');
    expect((await runCli(['run', 'experiment.yaml', '--db', schema.url, '--distributed', '--detach', '--max-worker-deaths', '5', '--run-id', 'm5'], { cwd: dir })).code).toBe(0);
    expect(await count(client, `SELECT max_worker_deaths AS n FROM runs WHERE run_id = 'm5'`)).toBe(5);
    // A re-submit may change it; without the flag it keeps the run's.
    expect((await runCli(['run', 'experiment.yaml', '--db', schema.url, '--distributed', '--detach', '--max-worker-deaths', '2', '--run-id', 'm5'], { cwd: dir })).code).toBe(0);
    expect((await runCli(['run', 'experiment.yaml', '--db', schema.url, '--distributed', '--detach', '--run-id', 'm5'], { cwd: dir })).code).toBe(0);
    expect(await count(client, `SELECT max_worker_deaths AS n FROM runs WHERE run_id = 'm5'`)).toBe(2);
    await client.query(`UPDATE ${schema.schema}_jobs.job SET state = 'cancelled' WHERE data->>'run_id' = 'm5'`);
  });
});
