#!/usr/bin/env node
/**
 * The team ledger's two figures:
 *  1. insert rate (calls/s): units committed through the worker's own UnitLedger (calls +
 *     result in one transaction, calls as one multi-row INSERT), 8 units in flight, 10 calls each;
 *  2. `isobudget analyze RUN_ID --db URL` on a run with 1,000,000 call records: a real
 *     distributed run (the simulator, `--cases` cases × 4 arms) whose calls table is then
 *     padded with copies of its own call records to 1,000,000 rows; wall time of the CLI process.
 *
 *   node bench/distributed-ledger.mjs [--units 4000] [--cases 500] [--calls 1000000]
 *
 * Writes bench/out/distributed-ledger.json.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { applyMigrations, MIGRATIONS, openPool } from '../dist/db/index.js';
import { UnitLedger } from '../dist/distributed/unit-ledger.js';
import { arithmeticExperiment, freshSchema, mustRun, ROOT } from './support/team-db.mjs';

const { values } = parseArgs({ options: { units: { type: 'string', default: '4000' }, cases: { type: 'string', default: '500' }, calls: { type: 'string', default: '1000000' } } });
const out = {};

// ---------------------------------------------------------------- 1. insert rate
{
  const db = await freshSchema('bench_ins');
  const pool = openPool(db.url, { applicationName: 'bench', max: 10 });
  try {
    await applyMigrations(pool, MIGRATIONS);
    const units = Number(values.units);
    await pool.query(`INSERT INTO runs (run_id, experiment, status, split, config_hash, inputs, manifest, units_planned, lease_seconds) VALUES ('r', 'bench', 'running', 'val', 'h', '{}', '{}', $1, 60)`, [units]);
    const call = (unit, i) => ({ schema_version: 1, kind: 'call', run_id: 'r', case_id: `c${unit}`, arm: 'baseline_single', n: 1, path: 0, paths: 1, epoch: 0, split: 'val', model: 'sim-small', base_url: 'http://127.0.0.1', protocol: 'openai-chat', prompt_tokens: 120, completion_tokens: 40, total_tokens: 160, cached_tokens: 0, reasoning_tokens: 0, usage_missing: false, cost_usd: 0.0001, max_tokens: 256, finish_reason: 'stop', finish_reason_raw: 'stop', latency_ms: 200, attempt: 1, status: 200, role: 'generate', error: undefined, retried: false, note: undefined, ts: new Date().toISOString(), call_id: `u${unit}-${i}` });
    const result = (unit) => ({ schema_version: 1, kind: 'result', run_id: 'r', case_id: `c${unit}`, arm: 'baseline_single', variant: 'baseline', n: 1, epoch: 0, split: 'val', passed: true, passed_any: true, passes: 1, paths: [], total_tokens: 1600, calls: 10, retries: 0, budget: 4000, latency_ms: 2000, ts: new Date().toISOString() });
    let next = 0;
    const started = performance.now();
    await Promise.all(Array.from({ length: 8 }, async () => {
      while (next < units) {
        const unit = next++;
        const ledger = new UnitLedger(pool, { runId: 'r', unitKey: `val|c${unit}|baseline_single|0`, attemptId: `a${unit}`, seq: unit }, (t) => t);
        await ledger.commit(Array.from({ length: 10 }, (_, i) => call(unit, i)), result(unit));
      }
    }));
    const seconds = (performance.now() - started) / 1000;
    const calls = (await pool.query(`SELECT count(*)::int AS n FROM calls WHERE state = 'committed'`)).rows[0].n;
    out.insert = { units, calls, seconds: Number(seconds.toFixed(2)), calls_per_s: Math.round(calls / seconds), units_per_s: Math.round(units / seconds) };
    process.stdout.write(`insert: ${units} units, ${calls} calls committed in ${seconds.toFixed(2)} s — ${Math.round(calls / seconds)} calls/s (${Math.round(units / seconds)} unit commits/s)\n`);
  } finally {
    await pool.end();
    await db.drop();
  }
}

// ---------------------------------------------------------------- 2. analyze --db on 1M calls
{
  const db = await freshSchema('bench_an');
  try {
    const dir = arithmeticExperiment(Number(values.cases), ['provider: { preset: sim }', 'models: { candidate: sim-small }', 'budget: { total_tokens_per_case: 2000, per_case_max_tokens: 256, best_of_n: [1, 4] }', 'selector: majority', 'concurrency: 16']);
    await mustRun(['db', 'migrate', '--db', db.url], { cwd: dir });
    await mustRun(['run', 'experiment.yaml', '--db', db.url, '--distributed', '--detach', '--run-id', 'big'], { cwd: dir });
    await Promise.all([1, 2].map(() => mustRun(['worker', '--db', db.url, '--until-idle', '--concurrency', '8', '--sim-latency-scale', '0'], { cwd: dir })));
    await mustRun(['runs', 'wait', 'big', '--db', db.url, '--quiet', '--json'], { cwd: dir });
    const client = new pg.Client({ connectionString: db.url });
    await client.connect();
    const have = (await client.query(`SELECT count(*)::int AS n FROM calls WHERE run_id = 'big'`)).rows[0].n;
    const target = Number(values.calls);
    const padStarted = performance.now();
    // Copies of the run's own committed calls (fresh call ids) until the table holds `target` rows of this run.
    await client.query(`INSERT INTO calls (run_id, call_id, unit_key, attempt_id, state, case_id, arm, epoch, role, model, prompt_tokens, completion_tokens, total_tokens, cost_usd, latency_ms, status, usage_missing, ts, record)
      SELECT c.run_id, 'pad-' || g || '-' || c.id, c.unit_key, 'pad', 'committed', c.case_id, c.arm, c.epoch, c.role, c.model, c.prompt_tokens, c.completion_tokens, c.total_tokens, c.cost_usd, c.latency_ms, c.status, c.usage_missing, c.ts, c.record
      FROM generate_series(1, $2::int) g CROSS JOIN (SELECT * FROM calls WHERE run_id = 'big' AND state = 'committed') c
      LIMIT $1::int`, [target - have, Math.ceil((target - have) / have)]);
    await client.query('ANALYZE calls');
    const total = (await client.query(`SELECT count(*)::int AS n FROM calls WHERE run_id = 'big'`)).rows[0].n;
    const results = (await client.query(`SELECT count(*)::int AS n FROM results WHERE run_id = 'big'`)).rows[0].n;
    await client.end();
    process.stdout.write(`padded calls to ${total} in ${((performance.now() - padStarted) / 1000).toFixed(1)} s (${results} results)\n`);
    const times = [];
    let verdict;
    for (let i = 0; i < 3; i += 1) {
      const started = performance.now();
      const analyzed = await mustRun(['analyze', 'big', '--db', db.url, '--json'], { cwd: dir });
      times.push((performance.now() - started) / 1000);
      verdict = JSON.parse(analyzed.stdout).verdict;
    }
    times.sort((a, b) => a - b);
    out.analyze = { calls: total, results, seconds_median: Number(times[1].toFixed(2)), seconds: times.map((t) => Number(t.toFixed(2))), verdict, target_s: 5 };
    process.stdout.write(`analyze --db: ${total} calls, ${results} results — ${times.map((t) => t.toFixed(2)).join(' / ')} s (median ${times[1].toFixed(2)} s, target < 5 s), verdict ${verdict}\n`);
  } finally {
    await db.drop();
  }
}
mkdirSync(join(ROOT, 'bench', 'out'), { recursive: true });
writeFileSync(join(ROOT, 'bench', 'out', 'distributed-ledger.json'), `${JSON.stringify(out, null, 2)}\n`);
