/**
 * Exactly once under `kill -9`: a worker running the `command` executor (a sleeping agent
 * behind the run's gateway, against the simulator) is killed at a random moment mid-unit;
 * the other workers take its units once its heartbeat stops (--dead-after) or the lease expires. The run completes, every planned
 * unit is committed exactly once, and the dead attempts' calls are kept as `interrupted`.
 * (Three trials here; bench/distributed-kill.mjs runs ten.)
 */
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import type { ChildProcess } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { freshSchema, skipWithoutPostgres, type TestSchema } from '../src/test-support/postgres.js';
import { runCli } from './support/cli.js';
import { arithmeticCases } from './support/experiment.js';

const skip = await skipWithoutPostgres('distributed kill -9');
const AGENT = fileURLToPath(new URL('./support/sleepy-agent.mjs', import.meta.url));

describe.skipIf(skip)('kill -9 of a distributed worker', () => {
  let schema: TestSchema;
  let client: pg.Client;
  beforeAll(async () => {
    schema = await freshSchema('kill');
    client = new pg.Client({ connectionString: schema.url });
    await client.connect();
  });
  afterAll(async () => {
    await client?.query(`DROP SCHEMA IF EXISTS ${schema.schema}_jobs CASCADE`);
    await client?.end();
    await schema?.drop();
  });

  test('kill -9 of a worker mid-unit: every unit committed exactly once, the dead attempts\' calls kept as interrupted', async () => {
    await runCli(['db', 'migrate', '--db', schema.url]);
    const dir = mkdtempSync(join(tmpdir(), 'isobudget-kill-'));
    cpSync(AGENT, join(dir, 'agent.mjs'));
    writeFileSync(join(dir, 'val.jsonl'), arithmeticCases(4));
    writeFileSync(join(dir, 'experiment.yaml'), [
      'experiment: kill', 'provider: { preset: sim }', 'models: { candidate: sim-small }',
      'variants:', '  baseline: { id: a, model: sim-small, system_prompt: "Answer." }', '  candidate: { id: b, model: sim-small, system_prompt: "Answer with the number." }',
      'budget: { total_tokens_per_case: 2000, per_case_max_tokens: 256, best_of_n: [1, 2] }', 'datasets: { val: val.jsonl }', 'scorer: numeric', 'selector: majority', 'seed: 3',
      `executor: { type: command, argv: ["${process.execPath}", "{{config_dir}}/agent.mjs", "{{input}}", "400"], timeout_ms: 20000 }`,
    ].join('\n'));
    for (let trial = 0; trial < 3; trial += 1) {
      const runId = `kill${trial}`;
      expect((await runCli(['run', 'experiment.yaml', '--db', schema.url, '--distributed', '--detach', '--lease', '3', '--run-id', runId], { cwd: dir })).code).toBe(0);
      let victim: ChildProcess | undefined;
      const doomed = runCli(['worker', '--db', schema.url, '--concurrency', '3', '--dead-after', '2'], { cwd: dir, onSpawn: (child) => (victim = child) });
      // Kill at a random moment once the doomed worker has calls in flight.
      for (let i = 0; i < 200; i += 1) {
        const { rows } = await client.query<{ n: number }>(`SELECT count(*)::int AS n FROM calls WHERE run_id = $1 AND state = 'in_flight'`, [runId]);
        if (rows[0]!.n > 0) break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      // Within the agent's 400 ms pause after its call: the attempt that made it cannot have committed.
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 200));
      victim!.kill('SIGKILL');
      expect((await doomed).signal).toBe('SIGKILL');
      const workers = [1, 2].map(() => runCli(['worker', '--db', schema.url, '--until-idle', '--concurrency', '3', '--lease-check', '1'], { cwd: dir }));
      const waited = await runCli(['runs', 'wait', runId, '--db', schema.url, '--json'], { cwd: dir });
      for (const worker of await Promise.all(workers)) expect(worker.code, worker.stderr).toBe(0);
      expect(waited.code, waited.stderr).toBe(0);
      const planned = (await client.query<{ n: number }>('SELECT units_planned AS n FROM runs WHERE run_id = $1', [runId])).rows[0]!.n;
      const keys = (await client.query<{ k: string }>('SELECT split || case_id || arm || epoch AS k FROM results WHERE run_id = $1', [runId])).rows.map((r) => r.k);
      expect(keys).toHaveLength(planned);
      expect(new Set(keys).size).toBe(planned);
      const lines = readFileSync(join(dir, 'runs', runId, 'results.jsonl'), 'utf8').trim().split('\n');
      expect(lines).toHaveLength(planned);
      const interrupted = (await client.query<{ attempt_id: string; unit_key: string }>(`SELECT attempt_id, unit_key FROM calls WHERE run_id = $1 AND state = 'interrupted'`, [runId])).rows;
      expect(interrupted.length).toBeGreaterThan(0);
      // Interrupted calls belong to attempts whose result is not the committed one.
      const winners = new Set((await client.query<{ attempt_id: string }>('SELECT attempt_id FROM results WHERE run_id = $1', [runId])).rows.map((r) => r.attempt_id));
      for (const call of interrupted) expect(winners.has(call.attempt_id)).toBe(false);
      expect((await client.query<{ n: number }>(`SELECT count(*)::int AS n FROM calls WHERE run_id = $1 AND state = 'in_flight'`, [runId])).rows[0]!.n).toBe(0);
      const file = readFileSync(join(dir, 'runs', runId, 'interrupted-calls.jsonl'), 'utf8').trim().split('\n');
      expect(file).toHaveLength(interrupted.length);
      // Re-submitting the finished run queues nothing.
      const again = await runCli(['run', 'experiment.yaml', '--db', schema.url, '--distributed', '--detach', '--run-id', runId], { cwd: dir });
      expect(again.stderr).toContain(`0 queued, ${planned} already committed`);
    }
  }, 120_000);

});
