#!/usr/bin/env node
/**
 * Two builds of the gateway side by side, interleaved request by request: what a change costs
 * per call, measured so that the load of a busy machine falls on both alike.
 *
 *   node bench/gateway-ab.mjs --before DIR [--after DIR] [--requests 2000] [--parallel 16]
 *
 * DIR is a checkout with a built dist/ (e.g. `git worktree add /tmp/before main && cd
 * /tmp/before && npm ci && npm run build`); --after defaults to this checkout. One simulator
 * (answering at once) sits behind both gateways, each with its own data dir and budgeted key.
 * Phase 1 sends one request at a time, alternating A B B A; phase 2 keeps --parallel requests
 * in flight on each gateway, in alternating blocks. Printed per build: latency p50/p90/p99
 * (ms), the median of the paired differences (after − before, sequential), the gateway's own
 * time before forwarding (gateway_ms from its ledger), and its CPU time per request (/proc).
 */
import { fork, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const here = dirname(fileURLToPath(import.meta.url));
const { values } = parseArgs({
  options: {
    before: { type: 'string' },
    after: { type: 'string', default: join(here, '..') },
    requests: { type: 'string', default: '2000' },
    parallel: { type: 'string', default: '16' },
  },
});
if (values.before === undefined) {
  process.stderr.write('usage: node bench/gateway-ab.mjs --before DIR [--after DIR] [--requests 2000] [--parallel 16]\n');
  process.exit(2);
}
const REQUESTS = Number(values.requests);
const PARALLEL = Number(values.parallel);
const builds = [{ name: 'before', root: resolve(values.before) }, { name: 'after', root: resolve(values.after) }];

function firstMatch(child, pattern) {
  return new Promise((resolvePromise, reject) => {
    let text = '';
    child.stdout.on('data', (chunk) => {
      text += chunk;
      const match = pattern.exec(text);
      if (match) resolvePromise(match[1]);
    });
    child.on('exit', (code) => reject(new Error(`child exited ${code}: ${text}`)));
  });
}

const sim = fork(join(here, 'sim-server.mjs'), ['--latency-scale', '0'], { stdio: ['ignore', 'pipe', 'inherit', 'ipc'] });
const simUrl = await firstMatch(sim, /"url":"([^"]+)"/);
for (const build of builds) {
  const bin = join(build.root, 'dist', 'cli', 'bin.js');
  build.dir = mkdtempSync(join(tmpdir(), `isobudget-ab-${build.name}-`));
  const minted = spawnSync(process.execPath, [bin, 'gateway', 'keys', 'create', '--budget', '1000000000000', '--data-dir', build.dir], { encoding: 'utf8' });
  if (minted.status !== 0) throw new Error(minted.stderr);
  build.key = minted.stdout.trim();
  build.process = spawn(process.execPath, [bin, 'gateway', '--upstream', simUrl, '--port', '0', '--data-dir', build.dir, '--quiet'], { stdio: ['ignore', 'pipe', 'inherit'] });
  build.url = await firstMatch(build.process, /listening on (http:\/\/\S+)/);
  build.latencies = { sequential: [], parallel: [] };
  build.cpuMs = 0;
  build.requests = 0;
}

const agent = new Agent({ keepAlive: true, maxSockets: 256 });
const BODIES = [
  { path: '/v1/chat/completions', body: JSON.stringify({ model: 'sim-small', max_tokens: 64, messages: [{ role: 'user', content: 'What is 12 + 30?' }] }) },
  { path: '/v1/messages', body: JSON.stringify({ model: 'sim-small', max_tokens: 64, messages: [{ role: 'user', content: 'What is 7 + 5?' }] }) },
];
function send(build, i) {
  const { path, body } = BODIES[i % BODIES.length];
  const since = performance.now();
  return new Promise((resolvePromise, reject) => {
    const outgoing = request(`${build.url}${path}`, { method: 'POST', agent, headers: { 'content-type': 'application/json', authorization: `Bearer ${build.key}`, 'anthropic-version': '2023-06-01', 'content-length': Buffer.byteLength(body) } });
    outgoing.on('response', (answer) => {
      answer.resume();
      answer.on('end', () => (answer.statusCode === 200 ? resolvePromise(performance.now() - since) : reject(new Error(`HTTP ${answer.statusCode}`))));
    });
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}
function cpuMs(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}
async function measured(build, run) {
  const cpu = cpuMs(build.process.pid);
  const count = await run();
  build.cpuMs += cpuMs(build.process.pid) - cpu;
  build.requests += count;
}

// Warm both (JIT, sockets, tokenizer tables).
for (const build of builds) for (let i = 0; i < 300; i += 1) await send(build, i);
const loadBefore = loadavg()[0];
const pairs = [];
for (let i = 0; i < REQUESTS; i += 1) {
  const order = i % 2 === 0 ? builds : [...builds].reverse();
  const pair = {};
  for (const build of order) {
    await measured(build, async () => {
      const ms = await send(build, i);
      build.latencies.sequential.push(ms);
      pair[build.name] = ms;
      return 1;
    });
  }
  pairs.push(pair.after - pair.before);
}
const BLOCK = 200;
for (let done = 0; done < REQUESTS; done += BLOCK) {
  const order = (done / BLOCK) % 2 === 0 ? builds : [...builds].reverse();
  for (const build of order) {
    await measured(build, async () => {
      let next = 0;
      await Promise.all(Array.from({ length: PARALLEL }, async () => {
        while (next < BLOCK) build.latencies.parallel.push(await send(build, done + next++));
      }));
      return BLOCK;
    });
  }
}
const loadAfter = loadavg()[0];

const quantile = (xs, q) => {
  const s = [...xs].sort((a, b) => a - b);
  const pos = (s.length - 1) * q;
  const lo = Math.floor(pos);
  return s[lo] + (s[Math.min(lo + 1, s.length - 1)] - s[lo]) * (pos - lo);
};
const fmt = (xs) => `p50 ${quantile(xs, 0.5).toFixed(3)} p90 ${quantile(xs, 0.9).toFixed(3)} p99 ${quantile(xs, 0.99).toFixed(3)}`;
for (const build of builds) {
  build.process.kill('SIGTERM');
  await new Promise((resolvePromise) => build.process.once('exit', resolvePromise));
  const ledger = join(build.dir, 'ledger');
  build.gatewayMs = readdirSync(ledger).flatMap((file) => readFileSync(join(ledger, file), 'utf8').trim().split('\n').filter(Boolean).map((line) => JSON.parse(line).gateway_ms)).filter((ms) => ms !== undefined);
  rmSync(build.dir, { recursive: true, force: true });
}
sim.kill();
agent.destroy();
console.log(`gateway A/B — ${REQUESTS} sequential requests per build (A B B A), then ${REQUESTS} with ${PARALLEL} in flight (alternating blocks of ${BLOCK}); load average ${loadBefore.toFixed(2)} → ${loadAfter.toFixed(2)}; ms`);
for (const build of builds) {
  console.log(`${build.name.padEnd(7)} sequential ${fmt(build.latencies.sequential)} | ${PARALLEL} in flight ${fmt(build.latencies.parallel)} | gateway_ms ${fmt(build.gatewayMs)} | CPU ${Math.round((build.cpuMs * 1000) / build.requests)} µs/request`);
}
console.log(`after − before, sequential, median of paired differences: ${quantile(pairs, 0.5).toFixed(3)} ms (p25 ${quantile(pairs, 0.25).toFixed(3)}, p75 ${quantile(pairs, 0.75).toFixed(3)})`);
