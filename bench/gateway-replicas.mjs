#!/usr/bin/env node
/**
 * Gateway replicas on Postgres vs the embedded gateway (issue 13, item 5): the latency a
 * Postgres-backed replica adds to a non-streaming call, against `sim serve` answering at once,
 * open loop at --rate requests/s (default 500), in both budget modes:
 *
 *   direct    — the simulator itself (the baseline every "added" figure subtracts);
 *   embedded  — `isobudget gateway --data-dir DIR` (SQLite keys, in-memory budgets, journal);
 *   pg-call   — `isobudget gateway --db URL` (default: one reservation statement per call);
 *   pg-lease  — `isobudget gateway --db URL --budget-lease 100000` (reservations in memory).
 *
 *   node bench/gateway-replicas.mjs [--seconds 4] [--rate 500] [--rounds 3] [--lease 100000] [--db URL] [--quiet]
 *
 * Every process is a child (this one only generates load). Request i is due at t0 + i/rate
 * and its latency counts from then (no coordinated omission). Sides run back to back in each
 * round (direct, embedded, pg-call, pg-lease), each after --warmup-seconds of unmeasured load;
 * "added" is the median over rounds of (side's percentile − direct's percentile in the round).
 * Then --sequential requests one at a time: the added latency with no queueing, the figure that
 * stays meaningful when a shared machine cannot sustain --rate.
 * CPU time per request (/proc) of each gateway process, plus for a replica the Postgres backends
 * serving it, is reported beside latency: it depends far less on the machine's other load.
 * Afterwards the replicas stop and the accounting is checked in the database: every request
 * sent has its gateway_calls row, Σ booked_tokens = spent, nothing left reserved.
 * Postgres: --db, else $ISOBUDGET_DATABASE_URL, else postgres://postgres@127.0.0.1:5432/test;
 * the bench works in a schema of its own and drops it.
 * Writes bench/out/<name>.json (default gateway-replicas).
 */
import { fork, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { migratedBenchSchema } from './support/bench-schema.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const BIN = join(here, '..', 'dist', 'cli', 'bin.js');
const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '4' },
    rate: { type: 'string', default: '500' },
    rounds: { type: 'string', default: '3' },
    lease: { type: 'string', default: '100000' },
    /** Requests sent one at a time per side per round: the added latency with no queueing at all. */
    sequential: { type: 'string', default: '300' },
    'warmup-seconds': { type: 'string', default: '1' },
    db: { type: 'string' },
    name: { type: 'string', default: 'gateway-replicas' },
    quiet: { type: 'boolean', default: false },
    // Passed by run-all.mjs to every benchmark; not used here.
    cases: { type: 'string' },
    concurrency: { type: 'string' },
    dist: { type: 'string' },
  },
});
const SECONDS = Number(values.seconds);
const RATE = Number(values.rate);
const ROUNDS = Number(values.rounds);
const WARMUP = Number(values['warmup-seconds']);
const log = (line) => void (values.quiet || process.stderr.write(`${line}\n`));
if (!existsSync(BIN)) {
  process.stderr.write('bench: dist/ is missing; run `npm run build` first\n');
  process.exit(2);
}

// ------------------------------------------------------------------ database: a schema of our own
const serverUrl = values.db ?? process.env.ISOBUDGET_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const { admin, schema, dbUrl, cli } = await migratedBenchSchema({ bench: 'gateway-replicas', prefix: 'bench_gwrep', serverUrl, bin: BIN });

// ------------------------------------------------------------------ servers (children)
const children = [];
function firstLine(child, pattern) {
  return new Promise((resolve, reject) => {
    let text = '';
    child.stdout.on('data', (chunk) => {
      text += chunk;
      const match = pattern.exec(text);
      if (match) resolve(match[1]);
    });
    child.on('exit', (code) => reject(new Error(`child exited ${code}`)));
  });
}
const sim = fork(join(here, 'sim-server.mjs'), ['--latency-scale', '0'], { stdio: ['ignore', 'pipe', 'inherit', 'ipc'] });
children.push(sim);
const simUrl = JSON.parse(await firstLine(sim, /^(\{.*\})$/m)).url;
const dataDir = mkdtempSync(join(tmpdir(), 'isobudget-bench-gwrep-'));
const BIG = '1000000000000';
async function gateway(args) {
  const child = spawn(process.execPath, [BIN, 'gateway', '--upstream', simUrl, '--port', '0', '--quiet', ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
  children.push(child);
  return { child, url: await firstLine(child, /listening on (http:\/\/\S+)/) };
}
const sides = {
  direct: { url: simUrl, key: 'none' },
  embedded: { ...(await gateway(['--data-dir', dataDir])), key: cli('gateway', 'keys', 'create', '--budget', BIG, '--data-dir', dataDir) },
  'pg-call': { ...(await gateway(['--db', dbUrl])), key: cli('gateway', 'keys', 'create', '--budget', BIG, '--db', dbUrl) },
  'pg-lease': { ...(await gateway(['--db', dbUrl, '--budget-lease', values.lease])), key: cli('gateway', 'keys', 'create', '--budget', BIG, '--db', dbUrl) },
};
log(`sim ${simUrl}; ${Object.entries(sides).map(([n, s]) => `${n} ${s.url}`).join(', ')}; ${cpus().length} CPUs, load ${loadavg()[0].toFixed(2)}`);

// ------------------------------------------------------------------ load
const agent = new Agent({ keepAlive: true, maxSockets: 512, maxFreeSockets: 512 });
const BODIES = [
  { path: '/v1/chat/completions', body: JSON.stringify({ model: 'sim-small', max_tokens: 64, messages: [{ role: 'user', content: 'What is 12 + 30?' }] }) },
  { path: '/v1/messages', body: JSON.stringify({ model: 'sim-small', max_tokens: 64, messages: [{ role: 'user', content: 'What is 7 + 5?' }] }) },
];
const sent = Object.fromEntries(Object.keys(sides).map((n) => [n, 0]));
let firstError;

function send(side, path, body, since) {
  sent[side] += 1;
  const { url, key } = sides[side];
  return new Promise((resolve, reject) => {
    const req = request(`${url}${path}`, { method: 'POST', agent, headers: { 'content-type': 'application/json', authorization: `Bearer ${key}`, 'anthropic-version': '2023-06-01', 'content-length': Buffer.byteLength(body) } });
    req.on('response', (res) => {
      res.resume();
      res.on('end', () => (res.statusCode === 200 ? resolve(performance.now() - since) : reject(new Error(`HTTP ${res.statusCode}`))));
    });
    req.on('error', reject);
    req.end(body);
  }).catch((error) => {
    firstError ??= `${side}: ${error.message}`;
    throw error;
  });
}

async function openLoop(side, seconds) {
  const count = Math.round(seconds * RATE);
  const start = performance.now() + 20;
  const latencies = [];
  let errors = 0;
  const pending = [];
  for (let i = 0; i < count; ) {
    await new Promise((resolve) => setTimeout(resolve, 1));
    const now = performance.now();
    for (; i < count && start + (i * 1000) / RATE <= now; i += 1) {
      const { path, body } = BODIES[i % BODIES.length];
      pending.push(send(side, path, body, start + (i * 1000) / RATE).then((ms) => latencies.push(ms), () => (errors += 1)));
    }
  }
  await Promise.all(pending);
  return { latencies, errors, achievedRate: count / ((performance.now() - start) / 1000) };
}

/** CPU time (ms) a process has used, from /proc (Linux); NaN elsewhere. */
function cpuMs(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return NaN;
  }
}
/** The gateway process and, for a replica, the Postgres backends serving it (same machine). */
async function processesOf(side) {
  const pid = sides[side].child?.pid;
  if (pid === undefined) return [];
  const backends = side.startsWith('pg-') ? (await admin.query('SELECT pid FROM pg_stat_activity WHERE application_name = $1', [`isobudget gateway (pid ${pid})`])).rows.map((r) => r.pid) : [];
  return [pid, ...backends];
}
const cpuOf = (pids) => pids.reduce((sum, pid) => sum + cpuMs(pid), 0);

async function sequential(side, count) {
  const latencies = [];
  for (let i = 0; i < count; i += 1) {
    const { path, body } = BODIES[i % BODIES.length];
    latencies.push(await send(side, path, body, performance.now()).catch(() => NaN));
  }
  return latencies.filter((x) => !Number.isNaN(x));
}

const quantile = (xs, q) => {
  const s = [...xs].sort((a, b) => a - b);
  if (s.length === 0) return NaN;
  const pos = (s.length - 1) * q;
  const lo = Math.floor(pos);
  return s[lo] + (s[Math.min(lo + 1, s.length - 1)] - s[lo]) * (pos - lo);
};
const round3 = (x) => +x.toFixed(3);

const perRound = Object.fromEntries(Object.keys(sides).map((n) => [n, []]));
const sequentialRounds = Object.fromEntries(Object.keys(sides).map((n) => [n, []]));
const pooled = Object.fromEntries(Object.keys(sides).map((n) => [n, []]));
let errors = 0;
for (let round = 0; round < ROUNDS; round += 1) {
  for (const side of Object.keys(sides)) {
    if (WARMUP > 0) await openLoop(side, WARMUP);
    const pids = await processesOf(side);
    const cpuBefore = cpuOf(pids);
    const r = await openLoop(side, SECONDS);
    const cpuPerRequest = (cpuOf(pids) - cpuBefore) / r.latencies.length;
    errors += r.errors;
    perRound[side].push({ p50: quantile(r.latencies, 0.5), p99: quantile(r.latencies, 0.99), rate: r.achievedRate, cpu_ms_per_request: cpuPerRequest, load: loadavg()[0] });
    pooled[side].push(...r.latencies);
    const one = await sequential(side, Number(values.sequential));
    sequentialRounds[side].push({ p50: quantile(one, 0.5), p99: quantile(one, 0.99) });
    log(`round ${round + 1} ${side.padEnd(9)} ${r.latencies.length} requests at ${Math.round(r.achievedRate)}/s, p50 ${quantile(r.latencies, 0.5).toFixed(2)} ms p99 ${quantile(r.latencies, 0.99).toFixed(2)} ms, CPU ${cpuPerRequest.toFixed(3)} ms/request (${pids.length} processes), load ${loadavg()[0].toFixed(2)}${r.errors ? `, ${r.errors} errors` : ''}`);
  }
}

// ------------------------------------------------------------------ stop, then check the accounting
agent.destroy();
const exited = (child) => new Promise((resolve) => (child.exitCode !== null ? resolve(child.exitCode) : child.once('exit', resolve)));
for (const name of ['embedded', 'pg-call', 'pg-lease']) {
  sides[name].child.kill('SIGTERM');
  await exited(sides[name].child);
}
sim.disconnect();
const accounting = {};
for (const name of ['pg-call', 'pg-lease']) {
  const id = sides[name].key.slice(4, 16);
  const key = (await admin.query(`SELECT spent, reserved FROM ${schema}.gateway_keys WHERE id = $1`, [id])).rows[0];
  const calls = (await admin.query(`SELECT count(*)::int AS n, coalesce(sum(booked_tokens), 0)::bigint AS booked, count(*) FILTER (WHERE status = 200)::int AS ok FROM ${schema}.gateway_calls WHERE key_id = $1`, [id])).rows[0];
  accounting[name] = { requests: sent[name], calls: calls.n, ok: calls.ok, spent: Number(key.spent), booked: Number(calls.booked), reserved: Number(key.reserved) };
  accounting[name].holds = calls.n === sent[name] && Number(calls.booked) === Number(key.spent) && Number(key.reserved) === 0;
}
await admin.query(`DROP SCHEMA ${schema} CASCADE`);
await admin.end();
rmSync(dataDir, { recursive: true, force: true });

const results = {};
for (const side of Object.keys(sides)) {
  const rounds = perRound[side];
  results[side] = {
    p50: round3(quantile(pooled[side], 0.5)),
    p99: round3(quantile(pooled[side], 0.99)),
    n: pooled[side].length,
    cpu_ms_per_request: side === 'direct' ? undefined : round3(quantile(rounds.map((r) => r.cpu_ms_per_request), 0.5)),
    ...(side === 'direct' ? {} : {
      added_p50: round3(quantile(rounds.map((r, i) => r.p50 - perRound.direct[i].p50), 0.5)),
      added_p99: round3(quantile(rounds.map((r, i) => r.p99 - perRound.direct[i].p99), 0.5)),
      sequential_added_p50: round3(quantile(sequentialRounds[side].map((r, i) => r.p50 - sequentialRounds.direct[i].p50), 0.5)),
      sequential_added_p99: round3(quantile(sequentialRounds[side].map((r, i) => r.p99 - sequentialRounds.direct[i].p99), 0.5)),
    }),
  };
}
const report = {
  name: values.name, rate: RATE, seconds: SECONDS, rounds: ROUNDS, lease_tokens: Number(values.lease), cpus: cpus().length, load: loadavg().map((l) => +l.toFixed(2)),
  results, per_round: perRound, sequential_rounds: sequentialRounds, accounting, errors, first_error: firstError,
};
mkdirSync(join(here, 'out'), { recursive: true });
writeFileSync(join(here, 'out', `${values.name}.json`), `${JSON.stringify(report, null, 2)}\n`);
process.stdout.write(`gateway replicas, non-streaming open loop at ${RATE} req/s, ${ROUNDS} rounds × ${SECONDS} s (ms; added = side − direct, median over rounds)\n`);
process.stdout.write(`${'side'.padEnd(10)}${'p50'.padStart(9)}${'p99'.padStart(9)}${'added p50'.padStart(11)}${'added p99'.padStart(11)}${'CPU ms/req'.padStart(12)}\n`);
for (const [side, r] of Object.entries(results)) {
  process.stdout.write(`${side.padEnd(10)}${r.p50.toFixed(2).padStart(9)}${r.p99.toFixed(2).padStart(9)}${(r.added_p50 ?? NaN).toFixed(2).padStart(11)}${(r.added_p99 ?? NaN).toFixed(2).padStart(11)}${(r.cpu_ms_per_request ?? NaN).toFixed(3).padStart(12)}\n`);
}
process.stdout.write('CPU ms/req: the gateway process, plus for a replica the Postgres backends serving it (median over rounds)\n');
process.stdout.write(`one request at a time (${values.sequential} per side per round), added p50 / p99: ${Object.entries(results).filter(([side]) => side !== 'direct').map(([side, r]) => `${side} +${r.sequential_added_p50.toFixed(2)} / +${r.sequential_added_p99.toFixed(2)} ms`).join(', ')}\n`);
for (const [side, a] of Object.entries(accounting)) {
  process.stdout.write(`${side}: ${a.requests} requests, ${a.calls} gateway_calls rows (${a.ok} × 200), spent ${a.spent} = Σ booked ${a.booked}, reserved ${a.reserved}: ${a.holds ? 'holds' : 'BROKEN'}\n`);
}
if (errors > 0) process.stdout.write(`${errors} request errors (first: ${firstError})\n`);
process.exit(Object.values(accounting).every((a) => a.holds) ? 0 : 1);
