#!/usr/bin/env node
/**
 * `kill -9` of a worker at a random moment, `--trials` times (default 10): workers run the
 * `command` executor (a sleeping agent behind the run's gateway, against the simulator); the
 * doomed worker is killed once it has calls in flight, plus a random 0–600 ms; two more
 * workers finish the run after the dead worker's leases expire. Each trial checks: the run
 * completes, every planned unit is committed exactly once, no call is left in flight, every
 * `interrupted` call belongs to an attempt that did not commit, and results.jsonl has one line
 * per unit. (A kill before the doomed worker's agents had called leaves nothing to interrupt.)
 *
 *   node bench/distributed-kill.mjs [--trials 10] [--cases 4]
 *
 * Writes bench/out/distributed-kill.json; exit 1 when a trial fails a check.
 */
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { arithmeticExperiment, cli, freshSchema, mustRun, ROOT } from './support/team-db.mjs';

const { values } = parseArgs({ options: { trials: { type: 'string', default: '10' }, cases: { type: 'string', default: '4' } } });
const dir = arithmeticExperiment(Number(values.cases), [
  'provider: { preset: sim }', 'models: { candidate: sim-small }', 'budget: { total_tokens_per_case: 2000, per_case_max_tokens: 256, best_of_n: [1, 2] }', 'selector: majority',
  `executor: { type: command, argv: ["${process.execPath}", "{{config_dir}}/agent.mjs", "{{input}}", "400"], timeout_ms: 20000 }`,
]);
copyFileSync(join(ROOT, 'test', 'support', 'sleepy-agent.mjs'), join(dir, 'agent.mjs'));
const db = await freshSchema('bench_kill');
const client = new pg.Client({ connectionString: db.url });
const trials = [];
let failed = 0;
try {
  await mustRun(['db', 'migrate', '--db', db.url], { cwd: dir });
  await client.connect();
  for (let trial = 0; trial < Number(values.trials); trial += 1) {
    const runId = `kill${trial}`;
    const started = performance.now();
    await mustRun(['run', 'experiment.yaml', '--db', db.url, '--distributed', '--detach', '--lease', '3', '--run-id', runId], { cwd: dir });
    let victim;
    const doomed = cli(['worker', '--db', db.url, '--concurrency', '3'], { cwd: dir, onSpawn: (child) => (victim = child) });
    for (let i = 0; i < 400; i += 1) {
      const { rows } = await client.query(`SELECT count(*)::int AS n FROM calls WHERE run_id = $1 AND state = 'in_flight'`, [runId]);
      if (rows[0].n > 0) break;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    const delay = Math.round(Math.random() * 600);
    await new Promise((resolve) => setTimeout(resolve, delay));
    victim.kill('SIGKILL');
    await doomed;
    const rescuers = [1, 2].map(() => mustRun(['worker', '--db', db.url, '--until-idle', '--concurrency', '3', '--lease-check', '1'], { cwd: dir }));
    const waited = await cli(['runs', 'wait', runId, '--db', db.url, '--json'], { cwd: dir });
    await Promise.all(rescuers);
    const q = async (sql) => (await client.query(sql, [runId])).rows[0];
    const planned = (await q('SELECT units_planned AS n FROM runs WHERE run_id = $1')).n;
    const committed = (await q('SELECT count(*)::int AS n, count(DISTINCT (split, case_id, arm, epoch))::int AS d FROM results WHERE run_id = $1'));
    const calls = await q(`SELECT count(*) FILTER (WHERE state = 'interrupted')::int AS interrupted, count(*) FILTER (WHERE state = 'in_flight')::int AS in_flight,
      count(*) FILTER (WHERE state = 'interrupted' AND attempt_id IN (SELECT attempt_id FROM results WHERE run_id = $1))::int AS interrupted_of_winners FROM calls WHERE run_id = $1`);
    const retried = (await q(`SELECT count(*)::int AS n FROM units WHERE run_id = $1 AND attempts > 1`)).n;
    const lines = readFileSync(join(dir, 'runs', runId, 'results.jsonl'), 'utf8').trim().split('\n').length;
    // A killed attempt that had not yet called (its agent was still starting) leaves no call: interrupted
    // calls are counted, not required; what must hold is exactly once and nothing left in flight.
    const ok = waited.code === 0 && committed.n === planned && committed.d === planned && lines === planned && calls.in_flight === 0 && calls.interrupted_of_winners === 0;
    if (!ok) failed += 1;
    const row = { trial, kill_after_ms: delay, planned, committed: committed.n, distinct: committed.d, units_retried: retried, interrupted_calls: calls.interrupted, in_flight_left: calls.in_flight, seconds: Number(((performance.now() - started) / 1000).toFixed(1)), ok };
    trials.push(row);
    process.stdout.write(`${JSON.stringify(row)}\n`);
  }
} finally {
  await client.end().catch(() => undefined);
  await db.drop();
}
process.stdout.write(`${trials.length - failed}/${trials.length} trials: every unit committed exactly once, nothing left in flight; ${trials.filter((t) => t.interrupted_calls > 0).length} trials killed attempts that had made calls (${trials.reduce((s, t) => s + t.interrupted_calls, 0)} calls kept as interrupted)\n`);
mkdirSync(join(ROOT, 'bench', 'out'), { recursive: true });
writeFileSync(join(ROOT, 'bench', 'out', 'distributed-kill.json'), `${JSON.stringify({ trials }, null, 2)}\n`);
process.exit(failed > 0 ? 1 : 0);
