#!/usr/bin/env node
/**
 * Gateway overhead: the same requests sent to `sim serve` directly and through
 * `isobudget gateway` (the real CLI, a budgeted virtual key, ledger on), compared.
 *
 *   node bench/gateway-overhead.mjs [--seconds 5] [--rate 1000] [--streams 200] [--rounds 3] [--quiet]
 *
 * Three processes, so a 2-core machine measures honestly: the simulator
 * (bench/sim-server.mjs) and the gateway each run in their own child; this process only
 * generates load. Phases alternate (direct, gateway, direct, gateway, …) so drift in the
 * machine's load hits both sides alike, and each side's samples are pooled.
 *
 * 1. Non-streaming, open loop at --rate requests/s (OpenAI chat and Anthropic messages
 *    alternating): request i is due at t0 + i/rate and its latency is measured from when it
 *    was due, so queueing inside the gateway counts (no coordinated omission).
 * 2. Streaming, closed loop with --streams concurrent SSE streams (Anthropic messages,
 *    stream: true; the sim spreads each stream over its simulated latency): time to first
 *    byte and to the end of the stream.
 *
 * "Added" is the gateway's percentile minus the direct percentile. Targets (issue 5):
 * added p50 ≤ 1 ms, added p99 ≤ 5 ms, TTFB p50/p99 unchanged within 1 ms for streams.
 * Writes bench/out/gateway-overhead.json.
 */
import { fork, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..');
const BIN = join(root, 'dist', 'cli', 'bin.js');
const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '5' },
    rate: { type: 'string', default: '1000' },
    streams: { type: 'string', default: '200' },
    rounds: { type: 'string', default: '3' },
    'latency-scale': { type: 'string', default: '0.02' },
    quiet: { type: 'boolean', default: false },
  },
});
const SECONDS = Number(values.seconds);
const RATE = Number(values.rate);
const STREAMS = Number(values.streams);
const ROUNDS = Number(values.rounds);
const log = (line) => {
  if (!values.quiet) process.stderr.write(`${line}\n`);
};
if (!existsSync(BIN)) {
  process.stderr.write('bench: dist/ is missing; run `npm run build` first\n');
  process.exit(2);
}

// ------------------------------------------------------------------ servers (children)
function firstJsonLine(child) {
  return new Promise((resolve, reject) => {
    let text = '';
    child.stdout.on('data', (chunk) => {
      text += chunk;
      const line = text.split('\n').find((l) => l.startsWith('{'));
      if (line) resolve(JSON.parse(line));
    });
    child.on('exit', (code) => reject(new Error(`child exited ${code}`)));
  });
}

function listening(child) {
  return new Promise((resolve, reject) => {
    let text = '';
    child.stdout.on('data', (chunk) => {
      text += chunk;
      const match = /listening on (http:\/\/\S+)/.exec(text);
      if (match) resolve(match[1]);
    });
    child.on('exit', (code) => reject(new Error(`gateway exited ${code}`)));
  });
}

const sim = fork(join(here, 'sim-server.mjs'), ['--latency-scale', values['latency-scale']], { stdio: ['ignore', 'pipe', 'inherit', 'ipc'] });
const { url: simUrl } = await firstJsonLine(sim);
const dataDir = mkdtempSync(join(tmpdir(), 'isobudget-bench-gw-'));
const minted = spawnSync(process.execPath, [BIN, 'gateway', 'keys', 'create', '--budget', '1000000000000', '--tag', 'run=bench', '--data-dir', dataDir], { encoding: 'utf8' });
if (minted.status !== 0) throw new Error(`keys create failed: ${minted.stderr}`);
const key = minted.stdout.trim();
const gateway = spawn(process.execPath, [BIN, 'gateway', '--upstream', simUrl, '--port', '0', '--data-dir', dataDir, '--quiet'], { stdio: ['ignore', 'pipe', 'inherit'] });
const gatewayUrl = await listening(gateway);
log(`sim ${simUrl}, gateway ${gatewayUrl} (pid ${gateway.pid}), ${cpus().length} CPUs, load ${loadavg()[0].toFixed(2)}`);

// ------------------------------------------------------------------ load
const agent = new Agent({ keepAlive: true, maxSockets: Infinity, maxFreeSockets: 1024 });
const headers = { 'content-type': 'application/json', authorization: `Bearer ${key}`, 'anthropic-version': '2023-06-01' };
const BODIES = [
  { path: '/v1/chat/completions', body: JSON.stringify({ model: 'sim-small', max_tokens: 64, messages: [{ role: 'user', content: 'What is 12 + 30?' }] }) },
  { path: '/v1/messages', body: JSON.stringify({ model: 'sim-small', max_tokens: 64, messages: [{ role: 'user', content: 'What is 7 + 5?' }] }) },
];
const STREAM_BODY = JSON.stringify({ model: 'sim-small', max_tokens: 256, stream: true, system: 'Explain thoroughly, step by step.', messages: [{ role: 'user', content: 'What is 17 + 25?' }] });

/** One request; resolves with { ttfb, total } in ms since `since`. */
function send(base, path, body, since) {
  return new Promise((resolve, reject) => {
    const req = request(`${base}${path}`, { method: 'POST', agent, headers: { ...headers, 'content-length': Buffer.byteLength(body) } });
    req.on('response', (res) => {
      let ttfb;
      res.on('data', () => {
        ttfb ??= performance.now() - since;
      });
      res.on('end', () => (res.statusCode === 200 ? resolve({ ttfb, total: performance.now() - since }) : reject(new Error(`HTTP ${res.statusCode}`))));
    });
    req.on('error', reject);
    req.end(body);
  });
}

async function openLoop(base, seconds) {
  const count = Math.round(seconds * RATE);
  const start = performance.now() + 20;
  const latencies = [];
  let errors = 0;
  const pending = [];
  for (let i = 0; i < count; i += 1) {
    const due = start + (i * 1000) / RATE;
    const wait = due - performance.now();
    if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait - 0.5));
    while (performance.now() < due) { /* spin the last half millisecond for an exact schedule */ }
    const { path, body } = BODIES[i % BODIES.length];
    pending.push(send(base, path, body, due).then((r) => latencies.push(r.total), () => (errors += 1)));
  }
  await Promise.all(pending);
  return { latencies, errors, achievedRate: count / ((performance.now() - start) / 1000) };
}

async function closedLoopStreams(base, seconds) {
  const until = performance.now() + seconds * 1000;
  const ttfb = [];
  const total = [];
  let errors = 0;
  await Promise.all(Array.from({ length: STREAMS }, async () => {
    while (performance.now() < until) {
      const since = performance.now();
      try {
        const r = await send(base, '/v1/messages', STREAM_BODY, since);
        ttfb.push(r.ttfb);
        total.push(r.total);
      } catch {
        errors += 1;
      }
    }
  }));
  return { ttfb, total, errors };
}

const quantile = (xs, q) => {
  const s = [...xs].sort((a, b) => a - b);
  if (s.length === 0) return NaN;
  const pos = (s.length - 1) * q;
  const lo = Math.floor(pos);
  return s[lo] + (s[Math.min(lo + 1, s.length - 1)] - s[lo]) * (pos - lo);
};
const summary = (xs) => ({ n: xs.length, p50: +quantile(xs, 0.5).toFixed(3), p90: +quantile(xs, 0.9).toFixed(3), p99: +quantile(xs, 0.99).toFixed(3) });

// Warm both paths (JIT, sockets, tokenizer tables).
await openLoop(simUrl, 1);
await openLoop(gatewayUrl, 1);
await closedLoopStreams(simUrl, 1);
await closedLoopStreams(gatewayUrl, 1);

const samples = { direct: { latencies: [], errors: 0, rates: [] }, gateway: { latencies: [], errors: 0, rates: [] } };
const streams = { direct: { ttfb: [], total: [], errors: 0 }, gateway: { ttfb: [], total: [], errors: 0 } };
for (let round = 0; round < ROUNDS; round += 1) {
  for (const [side, base] of [['direct', simUrl], ['gateway', gatewayUrl]]) {
    const r = await openLoop(base, SECONDS);
    samples[side].latencies.push(...r.latencies);
    samples[side].errors += r.errors;
    samples[side].rates.push(Math.round(r.achievedRate));
    log(`round ${round + 1} ${side} non-streaming: ${r.latencies.length} requests at ${Math.round(r.achievedRate)}/s, p50 ${quantile(r.latencies, 0.5).toFixed(2)} ms p99 ${quantile(r.latencies, 0.99).toFixed(2)} ms`);
  }
  for (const [side, base] of [['direct', simUrl], ['gateway', gatewayUrl]]) {
    const r = await closedLoopStreams(base, SECONDS);
    streams[side].ttfb.push(...r.ttfb);
    streams[side].total.push(...r.total);
    streams[side].errors += r.errors;
    log(`round ${round + 1} ${side} ${STREAMS} streams: ${r.ttfb.length} streams, TTFB p50 ${quantile(r.ttfb, 0.5).toFixed(2)} ms p99 ${quantile(r.ttfb, 0.99).toFixed(2)} ms`);
  }
}

const gatewayStats = await new Promise((resolve) => {
  sim.once('message', (message) => resolve(message.stats));
  sim.send({ type: 'stats' });
});
gateway.kill('SIGTERM');
await new Promise((resolve) => gateway.once('exit', resolve));
sim.send({ type: 'close' });
const ledgerShow = spawnSync(process.execPath, [BIN, 'gateway', 'ledger', 'show', '--data-dir', dataDir], { encoding: 'utf8' });
rmSync(dataDir, { recursive: true, force: true });

const direct = summary(samples.direct.latencies);
const viaGateway = summary(samples.gateway.latencies);
const ttfbDirect = summary(streams.direct.ttfb);
const ttfbGateway = summary(streams.gateway.ttfb);
const totalDirect = summary(streams.direct.total);
const totalGateway = summary(streams.gateway.total);
const added = { p50: +(viaGateway.p50 - direct.p50).toFixed(3), p99: +(viaGateway.p99 - direct.p99).toFixed(3) };
const addedTtfb = { p50: +(ttfbGateway.p50 - ttfbDirect.p50).toFixed(3), p99: +(ttfbGateway.p99 - ttfbDirect.p99).toFixed(3) };
const checks = {
  nonStreamingAddedP50: added.p50 <= 1,
  nonStreamingAddedP99: added.p99 <= 5,
  streamTtfbP50Within1ms: Math.abs(addedTtfb.p50) <= 1,
  streamTtfbP99Within1ms: Math.abs(addedTtfb.p99) <= 1,
  noErrors: samples.direct.errors + samples.gateway.errors + streams.direct.errors + streams.gateway.errors === 0,
};
const report = {
  when: new Date().toISOString(),
  cpus: cpus().length,
  node: process.version,
  settings: { seconds: SECONDS, rate: RATE, streams: STREAMS, rounds: ROUNDS, latencyScale: Number(values['latency-scale']) },
  nonStreaming: { direct, gateway: viaGateway, added, achievedRates: { direct: samples.direct.rates, gateway: samples.gateway.rates } },
  streaming: { ttfb: { direct: ttfbDirect, gateway: ttfbGateway, added: addedTtfb }, total: { direct: totalDirect, gateway: totalGateway, addedP50: +(totalGateway.p50 - totalDirect.p50).toFixed(3) } },
  errors: { direct: samples.direct.errors + streams.direct.errors, gateway: samples.gateway.errors + streams.gateway.errors },
  simServer: gatewayStats.server?.requests,
  gatewayLedger: ledgerShow.stdout.trim().split('\n').slice(0, 4),
  checks,
  pass: Object.values(checks).every(Boolean),
};
mkdirSync(join(here, 'out'), { recursive: true });
writeFileSync(join(here, 'out', 'gateway-overhead.json'), `${JSON.stringify(report, null, 2)}\n`);

const row = (label, d, g) => `${label.padEnd(34)} direct p50 ${d.p50.toFixed(2).padStart(7)}  p99 ${d.p99.toFixed(2).padStart(7)} | gateway p50 ${g.p50.toFixed(2).padStart(7)}  p99 ${g.p99.toFixed(2).padStart(7)} | added p50 ${(g.p50 - d.p50).toFixed(2).padStart(6)}  p99 ${(g.p99 - d.p99).toFixed(2).padStart(6)} ms`;
process.stdout.write(`gateway overhead (${cpus().length} CPUs, sim and gateway in their own processes, ${ROUNDS}×${SECONDS}s per side)\n`);
process.stdout.write(`${row(`non-streaming @ ${RATE}/s (${direct.n}+${viaGateway.n} req)`, direct, viaGateway)}\n`);
process.stdout.write(`${row(`${STREAMS} concurrent streams, TTFB`, ttfbDirect, ttfbGateway)}\n`);
process.stdout.write(`${row(`${STREAMS} concurrent streams, total`, totalDirect, totalGateway)}\n`);
process.stdout.write(`targets: added p50 ≤ 1 ms ${checks.nonStreamingAddedP50 ? 'met' : 'MISSED'}, added p99 ≤ 5 ms ${checks.nonStreamingAddedP99 ? 'met' : 'MISSED'}, TTFB within 1 ms p50 ${checks.streamTtfbP50Within1ms ? 'met' : 'MISSED'} p99 ${checks.streamTtfbP99Within1ms ? 'met' : 'MISSED'}; errors ${report.errors.direct + report.errors.gateway}\n`);
process.exit(0);
