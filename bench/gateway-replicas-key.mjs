#!/usr/bin/env node
/**
 * Gateway replicas' throughput on ONE key (issue 23, item 7): req/s of 1 and of 3 replicas
 * sharing one key, closed loop: --concurrency requests always in flight, spread round-robin
 * over the replicas, against `sim serve` answering at once, for --seconds after --warmup-seconds.
 * Modes (--modes, interleaved within each round; the 1/3 order alternates between rounds):
 *   call    `isobudget gateway --db URL`, per call with its automatic leases (the default)
 *   keyrow  per call with the automatic leases off: every reservation on the key row
 *           (`gateway --auto-lease off`; for an older build, MODE@DIST, bench/support/gateway-replica.mjs)
 *   lease   `--budget-lease TOKENS`
 *   MODE@DIST  the same with replicas from another build (a dist/ directory): before/after A/B
 *
 *   node bench/gateway-replicas-key.mjs [--seconds 5] [--concurrency 96] [--rounds 2] [--modes call,lease]
 *     [--lease 100000] [--cpu-per-replica SHARE] [--waits] [--profile DIR] [--db URL]
 *
 * --cpu-per-replica 0.3 runs every replica process in a cgroup of its own capped at 0.3 CPU
 * (cgroup v1 cpu controller, root; skipped with a message where it is not writable): replicas
 * on equal, dedicated CPU shares, as on machines or cores of their own, instead of all of them,
 * PostgreSQL, the simulator and this load generator fighting over the same cores. PostgreSQL,
 * the simulator and the load generator stay uncapped.
 *
 * For each window: CPU per call of the replicas, of the PostgreSQL backends serving them, of the
 * simulator, of this process and of the machine (/proc), the key row's UPDATEs per call
 * (pg_stat_user_tables of the bench schema, warm-up included), and with --waits what those
 * backends wait on (pg_stat_activity every 25 ms: Lock:tuple/transactionid = queued on a row).
 * --profile DIR: each replica writes a V8 CPU profile there (bench/profile-summary.mjs reads it).
 * Afterwards the replicas stop and the accounting is checked: Σ booked_tokens = spent ≤ budget,
 * nothing left reserved. Writes bench/out/<name>.json (default gateway-replicas-key).
 */
import { fork, spawn } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { cpus, loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { openCpuCaps } from './support/cpu-cap.mjs';
import { sampleWaits } from './support/pg-waits.mjs';
import { cpuMs, cpuOfAll, machineTicks, postgresPids } from './support/proc-cpu.mjs';
import { migratedBenchSchema } from './support/bench-schema.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const BIN = join(here, '..', 'dist', 'cli', 'bin.js');
const REPLICA = join(here, 'support', 'gateway-replica.mjs');
const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '5' },
    concurrency: { type: 'string', default: '96' },
    rounds: { type: 'string', default: '2' },
    modes: { type: 'string', default: 'call,lease' },
    lease: { type: 'string', default: '100000' },
    'warmup-seconds': { type: 'string', default: '1' },
    db: { type: 'string' },
    name: { type: 'string', default: 'gateway-replicas-key' },
    quiet: { type: 'boolean', default: false },
    'cpu-per-replica': { type: 'string' },
    waits: { type: 'boolean', default: false },
    profile: { type: 'string' },
  },
});
const log = (line) => void (values.quiet || process.stderr.write(`${line}\n`));
if (!existsSync(BIN)) {
  process.stderr.write('bench: dist/ is missing; run `npm run build` first\n');
  process.exit(2);
}
const MODES = ['call', 'keyrow', 'lease'];
const modes = values.modes.split(',');
for (const mode of modes) {
  const [name, dist] = mode.split('@');
  if (!MODES.includes(name) || (dist !== undefined && !existsSync(join(dist, 'cli', 'bin.js')))) {
    process.stderr.write(`bench gateway-replicas-key: --modes takes ${MODES.join(', ')}, each optionally @DIST (a built dist/ directory), got '${mode}'\n`);
    process.exit(2);
  }
}
let caps;
if (values['cpu-per-replica'] !== undefined) {
  const share = Number(values['cpu-per-replica']);
  if (!(share > 0 && share <= 64)) {
    process.stderr.write(`bench gateway-replicas-key: --cpu-per-replica takes a CPU share in (0, 64], e.g. 0.2, got '${values['cpu-per-replica']}'\n`);
    process.exit(2);
  }
  caps = openCpuCaps(`isobudget-bench-${process.pid}`, share);
  if (typeof caps === 'string') {
    process.stderr.write(`bench gateway-replicas-key: skipped, replicas cannot be capped: ${caps}\n`);
    process.exit(0);
  }
  // Best effort: a group still holding a process (a crash) is left; empty ones go.
  process.on('exit', () => caps.close());
}
const serverUrl = values.db ?? process.env.ISOBUDGET_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const { admin, schema, dbUrl, cli } = await migratedBenchSchema({ bench: 'gateway-replicas-key', prefix: 'bench_gwkey', serverUrl, bin: BIN });

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
const exited = (child) => new Promise((resolve) => (child.exitCode !== null ? resolve(child.exitCode) : child.once('exit', resolve)));
const sim = fork(join(here, 'sim-server.mjs'), ['--latency-scale', '0'], { stdio: ['ignore', 'pipe', 'inherit', 'ipc'] });
const simUrl = JSON.parse(await firstLine(sim, /^(\{.*\})$/m)).url;
const BUDGET = 1_000_000_000_000;
const agent = new Agent({ keepAlive: true, maxSockets: 1024, maxFreeSockets: 1024 });
const BODIES = [
  { path: '/v1/chat/completions', body: JSON.stringify({ model: 'sim-small', max_tokens: 64, messages: [{ role: 'user', content: 'What is 12 + 30?' }] }) },
  { path: '/v1/messages', body: JSON.stringify({ model: 'sim-small', max_tokens: 64, messages: [{ role: 'user', content: 'What is 7 + 5?' }] }) },
];
let firstError;

function send(url, key, i) {
  const { path, body } = BODIES[i % BODIES.length];
  return new Promise((resolve) => {
    const req = request(`${url}${path}`, {
      method: 'POST',
      agent,
      headers: {
        'content-type': 'application/json',
        authorization: `Bearer ${key}`,
        'anthropic-version': '2023-06-01',
        'content-length': Buffer.byteLength(body),
      },
    });
    req.on('response', (res) => {
      res.resume();
      res.on('end', () => {
        if (res.statusCode !== 200) firstError ??= `HTTP ${res.statusCode}`;
        resolve(res.statusCode === 200);
      });
    });
    req.on('error', (error) => {
      firstError ??= error.message;
      resolve(false);
    });
    req.end(body);
  });
}

/** --concurrency loops, each sending its next request when the last one ends; returns [ok, errors]. */
async function closedLoop(urls, key, seconds) {
  const until = performance.now() + seconds * 1000;
  let ok = 0;
  let errors = 0;
  let next = 0;
  await Promise.all(
    Array.from({ length: Number(values.concurrency) }, async () => {
      while (performance.now() < until) {
        const i = next++;
        if (await send(urls[i % urls.length], key, i)) ok += 1;
        else errors += 1;
      }
    }),
  );
  return { ok, errors };
}

/** One replica process of `mode` (`NAME` or `NAME@DIST`: replicas run from another build), capped when --cpu-per-replica is given. */
function startReplica(label) {
  const [mode, dist] = label.split('@');
  const bin = dist === undefined ? BIN : join(dist, 'cli', 'bin.js');
  const args =
    mode === 'keyrow' && dist === undefined
      ? [bin, 'gateway', '--db', dbUrl, '--upstream', simUrl, '--port', '0', '--quiet', '--auto-lease', 'off']
      : mode === 'keyrow'
      ? [REPLICA, '--db', dbUrl, '--upstream', simUrl, '--no-auto-lease', ...(dist === undefined ? [] : ['--dist', dist])]
      : [bin, 'gateway', '--db', dbUrl, '--upstream', simUrl, '--port', '0', '--quiet', ...(mode === 'lease' ? ['--budget-lease', values.lease] : [])];
  const node = values.profile ? ['--cpu-prof', `--cpu-prof-dir=${values.profile}`] : [];
  const child = spawn(process.execPath, [...node, ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
  const group = caps?.cap(child.pid);
  return { child, group };
}

const keyTableStats = async () =>
  (await admin.query(`SELECT n_tup_upd::bigint AS upd FROM pg_stat_user_tables WHERE schemaname = $1 AND relname = 'gateway_keys'`, [schema])).rows[0];

/** CPU (ms) so far of the replicas, their backends, the simulator, this process and every other postgres process. */
async function cpuNow(pids) {
  const mine = process.cpuUsage();
  const backends = (await admin.query('SELECT pid FROM pg_stat_activity WHERE application_name = ANY($1::text[])', [pids.map((pid) => `isobudget gateway (pid ${pid})`)])).rows.map((r) => r.pid);
  const others = postgresPids().filter((pid) => !backends.includes(pid));
  return { backends, replicas: cpuOfAll(pids), pg: cpuOfAll(backends), sim: cpuMs(sim.pid), load: (mine.user + mine.system) / 1000, others, machine: machineTicks() };
}

/** Which budget statement a backend runs (sql.ts), by its text. */
const STATEMENTS = [
  ['take', /^\s*WITH (lease|calls) AS/],
  ['reserve', /^\s*WITH granted AS \(\s*UPDATE gateway_keys k SET reserved = k.reserved \+ LEAST\(\$4::bigint, \$5/],
  ['top-up', /^\s*WITH granted AS/],
  ['settle', /^\s*WITH input AS/],
  ['release', /^\s*WITH res AS/],
];
const statementOf = (query) => STATEMENTS.find(([, pattern]) => pattern.test(query ?? ''))?.[0] ?? 'other';

async function runOne(round, mode, replicas) {
  const key = cli('gateway', 'keys', 'create', '--budget', String(BUDGET), '--db', dbUrl);
  const before = await keyTableStats();
  const started = Array.from({ length: replicas }, () => startReplica(mode));
  const children = started.map((s) => s.child);
  const urls = await Promise.all(children.map((child) => firstLine(child, /listening on (http:\/\/\S+)/)));
  if (Number(values['warmup-seconds']) > 0) await closedLoop(urls, key, Number(values['warmup-seconds']));
  const pids = children.map((child) => child.pid);
  const cpu0 = await cpuNow(pids);
  const othersAt0 = new Map(cpu0.others.map((pid) => [pid, cpuMs(pid)]));
  const throttled0 = started.map((s) => (s.group ? caps.throttled(s.group) : undefined));
  const stopWaits = values.waits ? sampleWaits(admin, pids.map((pid) => `isobudget gateway (pid ${pid})`), statementOf) : undefined;
  const t0 = performance.now();
  const { ok, errors } = await closedLoop(urls, key, Number(values.seconds));
  const elapsed = (performance.now() - t0) / 1000;
  const waits = await stopWaits?.();
  const cpu1 = await cpuNow(pids);
  // Backends that connected during the window count from 0; other postgres processes from the start (alive both times).
  const otherPg = cpu1.others.filter((pid) => othersAt0.has(pid)).reduce((sum, pid) => sum + Math.max(0, cpuMs(pid) - othersAt0.get(pid)), 0);
  const throttled = started.map((s, i) => {
    if (!s.group) return undefined;
    const t = caps.throttled(s.group);
    return +((t.throttled - throttled0[i].throttled) / Math.max(1, t.periods - throttled0[i].periods)).toFixed(2);
  });
  for (const child of children) child.kill('SIGTERM');
  await Promise.all(children.map(exited));
  const rate = ok / elapsed;
  const perCall = (ms) => +(ms / Math.max(1, ok)).toFixed(3);
  const ticks = cpu1.machine.total - cpu0.machine.total;
  const cpu = {
    replicas_ms: perCall(cpu1.replicas - cpu0.replicas),
    pg_backends_ms: perCall(cpu1.pg - cpu0.pg),
    sim_ms: perCall(cpu1.sim - cpu0.sim),
    load_generator_ms: perCall(cpu1.load - cpu0.load),
    other_postgres_ms: perCall(otherPg),
    machine_busy: +((cpu1.machine.busy - cpu0.machine.busy) / ticks).toFixed(2),
  };
  // pg_stat counts reach the view once the backends exit (they have: the replicas stopped).
  await new Promise((resolve) => setTimeout(resolve, 300));
  const keyRowUpdates = Number((await keyTableStats()).upd) - Number(before.upd);
  const id = key.slice(4, 16);
  const row = (await admin.query(`SELECT budget, spent, reserved FROM ${schema}.gateway_keys WHERE id = $1`, [id])).rows[0];
  const calls = (await admin.query(`SELECT count(*)::bigint AS n, coalesce(sum(booked_tokens), 0)::bigint AS b FROM ${schema}.gateway_calls WHERE key_id = $1`, [id])).rows[0];
  const holds = Number(calls.b) === Number(row.spent) && Number(row.spent) <= Number(row.budget) && Number(row.reserved) === 0;
  const result = {
    round, mode, replicas, ok, errors, rate: Math.round(rate), load: +loadavg()[0].toFixed(2), holds, cpu, throttled,
    key_row_updates_per_call: +(keyRowUpdates / Math.max(1, Number(calls.n))).toFixed(3), waits,
  };
  const parts = [`${ok} calls`, `${Math.round(rate)} req/s`, ...(errors ? [`${errors} errors`] : []), `load ${result.load}`, `machine busy ${Math.round(cpu.machine_busy * 100)}%`];
  const cpuLine = `CPU ms/call: replicas ${cpu.replicas_ms}, their pg backends ${cpu.pg_backends_ms}, sim ${cpu.sim_ms}, load gen ${cpu.load_generator_ms}, other postgres ${cpu.other_postgres_ms}`;
  log(`round ${round} ${mode.padEnd(7)} ${replicas} replica(s): ${parts.join(', ')}, accounting ${holds ? 'holds' : 'BROKEN'}`);
  log(`  ${cpuLine}; key-row UPDATEs/call ${result.key_row_updates_per_call}${throttled[0] !== undefined ? `; throttled periods ${throttled.join('/')}` : ''}`);
  if (waits) log(`  backends active/look ${waits.active_per_look}: ${Object.entries(waits.active).slice(0, 5).map(([what, share]) => `${what} ${Math.round(share * 100)}%`).join(', ')}`);
  return result;
}

const results = [];
for (let round = 1; round <= Number(values.rounds); round += 1)
  for (const mode of modes) for (const replicas of round % 2 ? [1, 3] : [3, 1]) results.push(await runOne(round, mode, replicas));
agent.destroy();
sim.disconnect();
sim.kill('SIGTERM');
await admin.query(`DROP SCHEMA ${schema} CASCADE`);
await admin.end();

const range = (xs) => [Math.min(...xs), Math.max(...xs)];
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const summary = {};
for (const mode of modes) {
  const rates = (n) => results.filter((r) => r.mode === mode && r.replicas === n).map((r) => r.rate);
  const one = median(rates(1));
  const three = median(rates(3));
  summary[mode] = { one_replica: one, three_replicas: three, ratio: +(three / one).toFixed(2), one_range: range(rates(1)), three_range: range(rates(3)) };
}
const loads = range(results.map((r) => r.load));
mkdirSync(join(here, 'out'), { recursive: true });
writeFileSync(
  join(here, 'out', `${values.name}.json`),
  `${JSON.stringify({ name: values.name, seconds: +values.seconds, concurrency: +values.concurrency, cpu_per_replica: caps?.share ?? null, cpus: cpus().length, load: loads, results, summary, first_error: firstError }, null, 2)}\n`,
);
const capped = caps ? `, each replica capped at ${caps.share} CPU` : ', replicas uncapped';
process.stdout.write(`gateway replicas on one key, closed loop of ${values.concurrency}${capped}, ${values.rounds} round(s) × ${values.seconds} s, load ${loads.join('–')} (median req/s [range])\n`);
for (const [mode, s] of Object.entries(summary))
  process.stdout.write(`${mode.padEnd(7)} 1 replica ${s.one_replica} [${s.one_range.join('–')}] req/s, 3 replicas ${s.three_replicas} [${s.three_range.join('–')}] req/s: ×${s.ratio}\n`);
if (firstError) process.stdout.write(`first error: ${firstError}\n`);
process.exit(results.every((r) => r.holds) ? 0 : 1);
