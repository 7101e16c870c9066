#!/usr/bin/env node
/**
 * Gateway replicas' throughput on ONE key (issue 23, item 7): req/s of 1 and of 3 replicas
 * (`isobudget gateway --db URL`, the default per-call mode, and optionally `--budget-lease`)
 * sharing one key, closed loop: --concurrency requests always in flight, spread round-robin
 * over the replicas, against `sim serve` answering at once, for --seconds after --warmup-seconds.
 *
 *   node bench/gateway-replicas-key.mjs [--seconds 5] [--concurrency 96] [--rounds 2] [--modes call,lease] [--lease 100000] [--db URL]
 *
 * Every process is a child (this one only generates load). Afterwards the replicas stop and
 * the accounting is checked: Σ booked_tokens = spent ≤ budget, nothing left reserved.
 * Writes bench/out/<name>.json (default gateway-replicas-key).
 */
import { fork, spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { cpus, loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import pg from 'pg';

const here = dirname(fileURLToPath(import.meta.url));
const BIN = join(here, '..', 'dist', 'cli', 'bin.js');
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
    cases: { type: 'string' },
    dist: { type: 'string' },
  },
});
const log = (line) => void (values.quiet || process.stderr.write(`${line}\n`));
if (!existsSync(BIN)) {
  process.stderr.write('bench: dist/ is missing; run `npm run build` first\n');
  process.exit(2);
}
const serverUrl = values.db ?? process.env.ISOBUDGET_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const schema = `bench_gwkey_${randomBytes(4).toString('hex')}`;
const admin = new pg.Client({ connectionString: serverUrl, connectionTimeoutMillis: 3000 });
try {
  await admin.connect();
} catch (error) {
  process.stderr.write(`bench gateway-replicas-key: skipped, no PostgreSQL (${error.code ?? error.message})\n`);
  process.exit(0);
}
await admin.query(`CREATE SCHEMA ${schema}`);
const dbUrl = (() => {
  const url = new URL(serverUrl);
  url.searchParams.set('options', `-c search_path=${schema}`);
  return url.toString();
})();
const cli = (...args) => {
  const out = spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8' });
  if (out.status !== 0) throw new Error(`isobudget ${args.slice(0, 3).join(' ')} failed: ${out.stderr}`);
  return out.stdout.trim();
};
cli('db', 'migrate', '--db', dbUrl);

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

const results = [];
for (let round = 0; round < Number(values.rounds); round += 1) {
  for (const mode of values.modes.split(',')) {
    for (const replicas of [1, 3]) {
      const key = cli('gateway', 'keys', 'create', '--budget', String(BUDGET), '--db', dbUrl);
      const extra = mode === 'lease' ? ['--budget-lease', values.lease] : [];
      const children = [];
      for (let r = 0; r < replicas; r += 1)
        children.push(
          spawn(process.execPath, [BIN, 'gateway', '--db', dbUrl, '--upstream', simUrl, '--port', '0', '--quiet', ...extra], {
            stdio: ['ignore', 'pipe', 'inherit'],
          }),
        );
      const urls = await Promise.all(children.map((child) => firstLine(child, /listening on (http:\/\/\S+)/)));
      if (Number(values['warmup-seconds']) > 0) await closedLoop(urls, key, Number(values['warmup-seconds']));
      const started = performance.now();
      const { ok, errors } = await closedLoop(urls, key, Number(values.seconds));
      const rate = ok / ((performance.now() - started) / 1000);
      for (const child of children) child.kill('SIGTERM');
      await Promise.all(children.map(exited));
      const id = key.slice(4, 16);
      const row = (await admin.query(`SELECT budget, spent, reserved FROM ${schema}.gateway_keys WHERE id = $1`, [id])).rows[0];
      const booked = Number(
        (await admin.query(`SELECT coalesce(sum(booked_tokens), 0)::bigint AS b FROM ${schema}.gateway_calls WHERE key_id = $1`, [id])).rows[0].b,
      );
      const holds = booked === Number(row.spent) && Number(row.spent) <= Number(row.budget) && Number(row.reserved) === 0;
      results.push({ round: round + 1, mode, replicas, ok, errors, rate: Math.round(rate), load: +loadavg()[0].toFixed(2), holds });
      log(
        `round ${round + 1} ${mode.padEnd(5)} ${replicas} replica(s): ${ok} calls, ${Math.round(rate)} req/s${errors ? `, ${errors} errors` : ''}, load ${loadavg()[0].toFixed(2)}, accounting ${holds ? 'holds' : 'BROKEN'}`,
      );
    }
  }
}
agent.destroy();
sim.disconnect();
sim.kill('SIGTERM');
await admin.query(`DROP SCHEMA ${schema} CASCADE`);
await admin.end();

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const summary = {};
for (const mode of values.modes.split(',')) {
  const one = median(results.filter((r) => r.mode === mode && r.replicas === 1).map((r) => r.rate));
  const three = median(results.filter((r) => r.mode === mode && r.replicas === 3).map((r) => r.rate));
  summary[mode] = { one_replica: one, three_replicas: three, ratio: +(three / one).toFixed(2) };
}
mkdirSync(join(here, 'out'), { recursive: true });
writeFileSync(
  join(here, 'out', `${values.name}.json`),
  `${JSON.stringify({ name: values.name, seconds: +values.seconds, concurrency: +values.concurrency, cpus: cpus().length, results, summary, first_error: firstError }, null, 2)}\n`,
);
process.stdout.write(`gateway replicas on one key, closed loop of ${values.concurrency}, ${values.rounds} round(s) × ${values.seconds} s (median req/s)\n`);
for (const [mode, s] of Object.entries(summary))
  process.stdout.write(`${mode.padEnd(6)} 1 replica ${s.one_replica} req/s, 3 replicas ${s.three_replicas} req/s: ×${s.ratio}\n`);
if (firstError) process.stdout.write(`first error: ${firstError}\n`);
process.exit(results.every((r) => r.holds) ? 0 : 1);
