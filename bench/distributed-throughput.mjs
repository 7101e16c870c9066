#!/usr/bin/env node
/**
 * Distributed run throughput: one run of `--cases` arithmetic cases × 2 arms (n=1), every call
 * against `sim serve --latency-scale 4` (≈ 200 ms per call: I/O-bound), executed by 1, 2 and 4
 * `isobudget worker` processes. Wall time is from submission to the last unit committed
 * (`runs wait`), so it includes queueing, the per-call intent rows and each unit's commit.
 *
 *   node bench/distributed-throughput.mjs [--cases 300] [--workers 1,2,4] [--concurrency 4]
 *
 * Writes bench/out/distributed-throughput.json.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { arithmeticExperiment, BIN, freshSchema, mustRun, ROOT } from './support/team-db.mjs';

const { values } = parseArgs({ options: { cases: { type: 'string', default: '300' }, workers: { type: 'string', default: '1,2,4' }, concurrency: { type: 'string', default: '4' } } });
const cases = Number(values.cases);
const concurrency = Number(values.concurrency);

const sim = spawn(process.execPath, [BIN, 'sim', 'serve', '--port', '0', '--latency-scale', '4'], { stdio: ['ignore', 'pipe', 'inherit'] });
const simUrl = await new Promise((resolve) => {
  let text = '';
  sim.stdout.on('data', (chunk) => {
    text += chunk;
    const match = /http:\/\/127\.0\.0\.1:\d+/.exec(text);
    if (match) resolve(match[0]);
  });
});
const dir = arithmeticExperiment(cases, [`provider: { protocol: openai-chat, base_url: "${simUrl}/v1" }`, 'budget: { total_tokens_per_case: 2000, per_case_max_tokens: 256, best_of_n: [1] }', `concurrency: ${concurrency}`]);
const rows = [];
for (const workers of values.workers.split(',').map(Number)) {
  const db = await freshSchema('bench_tp');
  try {
    await mustRun(['db', 'migrate', '--db', db.url], { cwd: dir });
    const started = performance.now();
    await mustRun(['run', 'experiment.yaml', '--db', db.url, '--distributed', '--detach', '--run-id', `tp${workers}`], { cwd: dir });
    const fleet = Array.from({ length: workers }, () => mustRun(['worker', '--db', db.url, '--until-idle', '--concurrency', String(concurrency)], { cwd: dir }));
    await mustRun(['runs', 'wait', `tp${workers}`, '--db', db.url, '--quiet', '--json'], { cwd: dir });
    const wallS = (performance.now() - started) / 1000;
    await Promise.all(fleet);
    const client = new pg.Client({ connectionString: db.url });
    await client.connect();
    const stats = (await client.query(`SELECT count(*)::int AS calls, avg(latency_ms)::float8 AS mean_ms FROM calls WHERE state = 'committed'`)).rows[0];
    const units = (await client.query('SELECT count(*)::int AS n FROM results')).rows[0].n;
    await client.end();
    rows.push({ workers, units, calls: stats.calls, mean_call_ms: Math.round(stats.mean_ms), wall_s: Number(wallS.toFixed(2)), units_per_s: Number((units / wallS).toFixed(1)) });
    process.stdout.write(`workers ${workers}: ${units} units, ${stats.calls} calls (mean ${Math.round(stats.mean_ms)} ms), wall ${wallS.toFixed(2)} s, ${(units / wallS).toFixed(1)} units/s\n`);
  } finally {
    await db.drop();
  }
}
sim.kill();
const base = rows[0];
for (const row of rows) row.speedup = Number((base.wall_s / row.wall_s).toFixed(2));
mkdirSync(join(ROOT, 'bench', 'out'), { recursive: true });
writeFileSync(join(ROOT, 'bench', 'out', 'distributed-throughput.json'), `${JSON.stringify({ cases, concurrency, rows }, null, 2)}\n`);
console.log(JSON.stringify(rows));
