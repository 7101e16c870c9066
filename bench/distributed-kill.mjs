#!/usr/bin/env node
/**
 * `kill -9` of a worker at a random moment, `--trials` times (default 10): workers run the
 * `command` executor (a sleeping agent behind the run's gateway, against `sim serve` at ~240 ms
 * a call); the doomed worker is killed once it has calls in flight, plus a random 0–600 ms; two
 * more workers finish the run after the dead worker's leases expire. Each trial checks: the run
 * completes, every planned unit is committed exactly once, no call is left in flight, every
 * `interrupted` call belongs to an attempt that did not commit, every call the killed worker
 * had in flight (its intent row, written before the gateway forwarded it) is kept as
 * `outcome_unknown` with its reservation, and the manifest counts those reservations as spent;
 * results.jsonl has one line per unit. (A kill before the doomed worker's agents had called
 * leaves nothing to interrupt.) Also reports `gateway_ms` of the agents' calls — the gateway's
 * own time before a call leaves, which on a worker includes waiting for the intent row —
 * against two embedded runs of the same experiment (before and after the trials).
 *
 *   node bench/distributed-kill.mjs [--trials 10] [--cases 4]
 *
 * Writes bench/out/distributed-kill.json; exit 1 when a trial fails a check.
 */
import { spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { arithmeticExperiment, BIN, cli, freshSchema, mustRun, ROOT } from './support/team-db.mjs';

const { values } = parseArgs({ options: { trials: { type: 'string', default: '10' }, cases: { type: 'string', default: '4' } } });
// The agents' gateway forwards to `sim serve` with ~240 ms per call, so a random kill often lands mid-call.
const sim = spawn(process.execPath, [BIN, 'sim', 'serve', '--port', '0', '--latency-scale', '4'], { stdio: ['ignore', 'pipe', 'inherit'] });
const simUrl = await new Promise((resolve) => {
  let text = '';
  sim.stdout.on('data', (chunk) => {
    text += chunk;
    const match = /http:\/\/127\.0\.0\.1:\d+/.exec(text);
    if (match) resolve(match[0]);
  });
});
const dir = arithmeticExperiment(Number(values.cases), [
  'provider: { preset: sim }', 'models: { candidate: sim-small }', 'budget: { total_tokens_per_case: 2000, per_case_max_tokens: 256, best_of_n: [1, 2] }', 'selector: majority',
  `executor: { type: command, argv: ["${process.execPath}", "{{config_dir}}/agent.mjs", "{{input}}", "400"], timeout_ms: 20000, gateway: { upstream: "${simUrl}" } }`,
]);
copyFileSync(join(ROOT, 'test', 'support', 'sleepy-agent.mjs'), join(dir, 'agent.mjs'));
const db = await freshSchema('bench_kill');
const client = new pg.Client({ connectionString: db.url });
const trials = [];
const gatewayMs = [];
const embeddedMs = [];
let failed = 0;

/** The same experiment embedded (once before the trials, once after): its gateway forwards without waiting on a database. */
async function embeddedRun(runId) {
  await mustRun(['run', 'experiment.yaml', '--run-id', runId, '--quiet', '--no-report'], { cwd: dir });
  const records = readFileSync(join(dir, 'runs', runId, 'calls.jsonl'), 'utf8').trim().split('\n').map((line) => JSON.parse(line));
  embeddedMs.push(...records.map((record) => record.gateway_ms).filter((ms) => typeof ms === 'number'));
}
try {
  await mustRun(['db', 'migrate', '--db', db.url], { cwd: dir });
  await client.connect();
  await embeddedRun('embedded-before');
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
      count(*) FILTER (WHERE state = 'interrupted' AND attempt_id IN (SELECT attempt_id FROM results WHERE run_id = $1))::int AS interrupted_of_winners,
      count(*) FILTER (WHERE state = 'interrupted' AND record->>'note' = 'outcome_unknown')::int AS unknown,
      count(*) FILTER (WHERE state = 'interrupted' AND record->>'note' = 'outcome_unknown' AND (record->>'reserved_tokens')::int > 0)::int AS unknown_reserved,
      coalesce(sum((record->>'reserved_tokens')::int) FILTER (WHERE state = 'interrupted' AND record->>'note' = 'outcome_unknown'), 0)::int AS unknown_tokens FROM calls WHERE run_id = $1`);
    gatewayMs.push(...(await client.query(`SELECT (record->>'gateway_ms')::float AS ms FROM calls WHERE run_id = $1 AND state = 'committed' AND record->>'gateway_ms' IS NOT NULL`, [runId])).rows.map((r) => r.ms));
    const manifest = JSON.parse(readFileSync(join(dir, 'runs', runId, 'manifest.json'), 'utf8'));
    const retried = (await q(`SELECT count(*)::int AS n FROM units WHERE run_id = $1 AND attempts > 1`)).n;
    const lines = readFileSync(join(dir, 'runs', runId, 'results.jsonl'), 'utf8').trim().split('\n').length;
    // A killed attempt that had not yet called (its agent was still starting) leaves no call: interrupted
    // calls are counted, not required; what must hold is exactly once and nothing left in flight.
    const ok = waited.code === 0 && committed.n === planned && committed.d === planned && lines === planned && calls.in_flight === 0 && calls.interrupted_of_winners === 0
      && calls.unknown_reserved === calls.unknown && manifest.calls.outcome_unknown === calls.unknown && manifest.calls.outcome_unknown_max_tokens === calls.unknown_tokens;
    if (!ok) failed += 1;
    const row = { trial, kill_after_ms: delay, planned, committed: committed.n, distinct: committed.d, units_retried: retried, interrupted_calls: calls.interrupted, in_flight_at_kill: calls.unknown, their_reserved_tokens: calls.unknown_tokens, in_flight_left: calls.in_flight, seconds: Number(((performance.now() - started) / 1000).toFixed(1)), ok };
    trials.push(row);
    process.stdout.write(`${JSON.stringify(row)}\n`);
  }
  await embeddedRun('embedded-after');
} finally {
  sim.kill();
  await client.end().catch(() => undefined);
  await db.drop();
}
const sum = (key) => trials.reduce((s, t) => s + t[key], 0);
const quantile = (values, q) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length === 0 ? undefined : sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
};
const latency = { worker: { calls: gatewayMs.length, p50: quantile(gatewayMs, 0.5), p99: quantile(gatewayMs, 0.99) }, embedded: { calls: embeddedMs.length, p50: quantile(embeddedMs, 0.5), p99: quantile(embeddedMs, 0.99) } };
process.stdout.write(`${trials.length - failed}/${trials.length} trials: every unit committed exactly once, nothing left in flight; ${trials.filter((t) => t.interrupted_calls > 0).length} trials killed attempts that had made calls (${sum('interrupted_calls')} calls kept as interrupted, ${sum('in_flight_at_kill')} of them in flight at the kill: outcome_unknown, ${sum('their_reserved_tokens')} reserved tokens counted as spent)\n`);
process.stdout.write(`gateway_ms of agent calls: worker (intent row awaited) p50 ${latency.worker.p50} / p99 ${latency.worker.p99} ms over ${latency.worker.calls} calls; embedded p50 ${latency.embedded.p50} / p99 ${latency.embedded.p99} ms over ${latency.embedded.calls}\n`);
mkdirSync(join(ROOT, 'bench', 'out'), { recursive: true });
writeFileSync(join(ROOT, 'bench', 'out', 'distributed-kill.json'), `${JSON.stringify({ trials, gateway_ms: latency }, null, 2)}\n`);
process.exit(failed > 0 ? 1 : 0);
