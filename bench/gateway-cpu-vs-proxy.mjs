#!/usr/bin/env node
/**
 * The gateway's CPU per call beside a bare parse-and-forward proxy, in one process (issue 20,
 * "Must show": ≤ 1.4×). Both sit in front of the same in-process upstream and take the same
 * ~70 KB Claude-Code-shaped bodies (the fixture's body with its trimmed strings restored,
 * plus tool_use / tool_result turns; each call adds a new user turn, as a session does):
 * - proxy: reads the body, JSON.parse's it (the least any budget-aware proxy does), forwards
 *   the bytes and pipes the streamed answer back;
 * - gateway: `startGateway` from dist/, a budgeted virtual key (the body walk, duplicate-key
 *   check, estimate, reservation, usage observation and settlement all run), records in memory.
 * CPU is process.cpuUsage() (user + system) over a round of calls, divided by the calls; the
 * client (its bodies made before the clock starts) and the upstream are the same for both, so
 * the difference is the middle. Rounds
 * alternate (proxy, gateway, proxy, …) so drift in the machine's load hits both alike.
 *
 *   node bench/gateway-cpu-vs-proxy.mjs [--calls 25] [--rounds 40] [--concurrency 4] [--against DIST]
 *
 * `--against DIST` puts a second build's gateway in the same run (its windows alternate with
 * the other two, the gateways taking turns at the window after the proxy's): the gateway as it was at another commit, measured on the same machine in the
 * same minutes — e.g. before a change, to see what the change cost where the ratio to the proxy
 * depends on the machine:
 *   git worktree add /tmp/old <commit> && (cd /tmp/old && npm ci && npm run build)
 *   node bench/gateway-cpu-vs-proxy.mjs --against /tmp/old/dist
 *
 * Writes bench/out/gateway-cpu-vs-proxy.json; exits 1 when the median ratio is above 1.4.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { Agent, createServer, request } from 'node:http';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const here = dirname(fileURLToPath(import.meta.url));
const { startGateway, KeyStore, MemorySink } = await import(join(here, '..', 'dist', 'gateway', 'index.js'));
const { values } = parseArgs({ strict: false, options: { calls: { type: 'string', default: '25' }, rounds: { type: 'string', default: '40' }, concurrency: { type: 'string', default: '4' }, against: { type: 'string' } } });
const CALLS = Number(values.calls);
const ROUNDS = Number(values.rounds);
const CONCURRENCY = Number(values.concurrency);
const LIMIT = 1.4;

// ------------------------------------------------------------------ bodies
const FIXTURES = process.env.ISOBUDGET_SHARED ? join(process.env.ISOBUDGET_SHARED, 'fixtures/real-clients') : '/work/shared/fixtures/real-clients';
const fixture = JSON.parse(readFileSync(join(FIXTURES, 'claude-code-2.1.332.jsonl'), 'utf8').split('\n')[0]).body;
const prose = readFileSync(join(here, '..', 'README.md'), 'utf8');
let cursor = 0;
const text = (chars) => {
  let out = '';
  while (out.length < chars) {
    out += prose.slice(cursor % prose.length, (cursor % prose.length) + chars - out.length);
    cursor += 7919;
  }
  return out;
};
/** The fixture's strings were cut to 240 characters (`…[N chars trimmed]`): give them back their length. */
const restore = (value) => {
  if (typeof value === 'string') {
    const match = /…\[(\d+) chars trimmed\]$/.exec(value);
    return match ? value.slice(0, value.length - match[0].length) + text(Number(match[1])) : value;
  }
  if (Array.isArray(value)) return value.map(restore);
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, restore(v)]));
  return value;
};
const base = restore(fixture);
// Turns of a coding session: the model reads files and runs commands, the results come back.
const turns = [];
for (let i = 0; JSON.stringify({ ...base, messages: [...base.messages, ...turns] }).length < 68_000; i += 1) {
  turns.push({ role: 'assistant', content: [{ type: 'text', text: text(120) }, { type: 'tool_use', id: `toolu_${i}`, name: i % 2 ? 'Bash' : 'Read', input: i % 2 ? { command: `grep -rn x src/${i}` } : { file_path: `/repo/src/file-${i}.ts` } }] });
  turns.push({ role: 'user', content: [{ type: 'tool_result', tool_use_id: `toolu_${i}`, content: [{ type: 'text', text: text(2400) }] }] });
}
let callNumber = 0;
const nextBody = () => JSON.stringify({ ...base, max_tokens: 4096, messages: [...base.messages, ...turns, { role: 'user', content: [{ type: 'text', text: `Turn ${(callNumber += 1)}: ${text(300)}` }] }] });
const sampleBytes = Buffer.byteLength(nextBody());

// ------------------------------------------------------------------ upstream (answers a short stream at once)
const events = [
  ['message_start', { type: 'message_start', message: { id: 'msg_1', type: 'message', role: 'assistant', model: 'claude', content: [], usage: { input_tokens: 18_000, output_tokens: 1 } } }],
  ['content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }],
  ...Array.from({ length: 20 }, () => ['content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'hello there, ' } }]),
  ['content_block_stop', { type: 'content_block_stop', index: 0 }],
  ['message_delta', { type: 'message_delta', delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 60 } }],
  ['message_stop', { type: 'message_stop' }],
];
const sse = events.map(([event, data]) => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`).join('');
const upstream = createServer({ keepAlive: true }, (req, res) => {
  req.on('data', () => undefined);
  req.on('end', () => {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.end(sse);
  });
});
await new Promise((resolve) => upstream.listen(0, '127.0.0.1', resolve));
const upstreamPort = upstream.address().port;
const upstreamUrl = `http://127.0.0.1:${upstreamPort}`;

// ------------------------------------------------------------------ the bare proxy
const proxyAgent = new Agent({ keepAlive: true, maxSockets: Infinity });
const proxy = createServer({ keepAlive: true, noDelay: true }, (req, res) => {
  const chunks = [];
  req.on('data', (chunk) => chunks.push(chunk));
  req.on('end', () => {
    const body = Buffer.concat(chunks);
    JSON.parse(body.toString('utf8'));
    const headers = { ...req.headers, 'content-length': String(body.length) };
    const out = request({ hostname: '127.0.0.1', port: upstreamPort, path: req.url, method: req.method, headers, agent: proxyAgent }, (reply) => {
      res.writeHead(reply.statusCode ?? 502, reply.headers);
      reply.pipe(res);
    });
    out.on('error', () => res.destroy());
    out.end(body);
  });
});
await new Promise((resolve) => proxy.listen(0, '127.0.0.1', resolve));

// ------------------------------------------------------------------ the gateway
const keys = KeyStore.open(':memory:');
const { secret } = keys.create({ budget: 1e12, tags: {} });
const gateway = await startGateway({ upstream: upstreamUrl, upstreamKey: 'sk-upstream-bench-key-000000', keys, sink: new MemorySink() });
// The other build's gateway (`--against`): its own key store, the same upstream, a key worth as much.
const other = values.against === undefined ? undefined : await (async () => {
  const api = await import(join(resolve(values.against), 'gateway', 'index.js'));
  const store = api.KeyStore.open(':memory:');
  const { secret: otherSecret } = store.create({ budget: 1e12, tags: {} });
  const server = await api.startGateway({ upstream: upstreamUrl, upstreamKey: 'sk-upstream-bench-key-000000', keys: store, sink: new api.MemorySink() });
  return { server, store, secret: otherSecret };
})();
let useSecret = secret;

// ------------------------------------------------------------------ the client
const clientAgent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });
function call(port, body) {
  return new Promise((resolve, reject) => {
    const req = request(
      { hostname: '127.0.0.1', port, path: '/v1/messages?beta=true', method: 'POST', agent: clientAgent, headers: { 'content-type': 'application/json', 'content-length': String(body.length), 'x-api-key': useSecret, 'anthropic-version': '2023-06-01', 'x-claude-code-session-id': 'bench' } },
      (res) => {
        let bytes = 0;
        res.on('data', (chunk) => (bytes += chunk.length));
        res.on('end', () => (res.statusCode === 200 && bytes > 0 ? resolve() : reject(new Error(`status ${res.statusCode}`))));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}
async function round(port, calls) {
  // Made before the clock starts: building a body is the client's work, not the middle's.
  const bodies = Array.from({ length: calls }, () => Buffer.from(nextBody()));
  let next = 0;
  const before = process.cpuUsage();
  await Promise.all(Array.from({ length: CONCURRENCY }, async () => {
    while (next < calls) {
      next += 1;
      await call(port, bodies[next - 1]);
    }
  }));
  // Work the window started and left for later (counting new text, closing records) is its own.
  await new Promise((resolve) => setTimeout(resolve, 5));
  const used = process.cpuUsage(before);
  return used.user + used.system;
}

const proxyPort = proxy.address().port;
const gatewayPort = gateway.port;
const otherRound = async (calls) => {
  useSecret = other.secret;
  try {
    return await round(other.server.port, calls);
  } finally {
    useSecret = secret;
  }
};
// Warm-up: JIT, the tokenizer, the count cache of the shared prefix.
await round(proxyPort, 60);
await round(gatewayPort, 60);
if (other) await otherRound(60);
const proxyUs = [];
const gatewayUs = [];
const otherUs = [];
for (let r = 0; r < ROUNDS; r += 1) {
  proxyUs.push(await round(proxyPort, CALLS));
  // The two gateways take turns at the window after the proxy's.
  if (other && r % 2 === 1) otherUs.push(await otherRound(CALLS));
  gatewayUs.push(await round(gatewayPort, CALLS));
  if (other && r % 2 === 0) otherUs.push(await otherRound(CALLS));
}
const sum = (list) => list.reduce((total, value) => total + value, 0);
const perCall = (list) => sum(list) / (list.length * CALLS);
// The middle half of the per-window ratios: how much a single window can be off under load.
const ratios = proxyUs.map((p, i) => gatewayUs[i] / p).sort((a, b) => a - b);
const quartile = (q) => Math.round(ratios[Math.floor(q * (ratios.length - 1))] * 100) / 100;
const result = {
  when: new Date().toISOString(),
  bodyBytes: sampleBytes,
  callsPerWindow: CALLS,
  windows: ROUNDS,
  concurrency: CONCURRENCY,
  proxyCpuUsPerCall: Math.round(perCall(proxyUs)),
  gatewayCpuUsPerCall: Math.round(perCall(gatewayUs)),
  ratio: Math.round((sum(gatewayUs) / sum(proxyUs)) * 100) / 100,
  windowRatioQuartiles: [quartile(0.25), quartile(0.5), quartile(0.75)],
  limit: LIMIT,
  ...(other && {
    against: resolve(values.against),
    againstCpuUsPerCall: Math.round(perCall(otherUs)),
    againstRatio: Math.round((sum(otherUs) / sum(proxyUs)) * 100) / 100,
    gatewayOverAgainst: Math.round((sum(gatewayUs) / sum(otherUs)) * 100) / 100,
  }),
};
process.stdout.write(`gateway-cpu-vs-proxy: ${(sampleBytes / 1024).toFixed(0)} KB bodies, ${ROUNDS} windows × ${CALLS} calls each: proxy ${result.proxyCpuUsPerCall} µs CPU/call, gateway ${result.gatewayCpuUsPerCall} µs → ${result.ratio}× (limit ${LIMIT}×; per-window quartiles ${result.windowRatioQuartiles.join(' / ')})\n`);
if (other) process.stdout.write(`  against ${result.against}: ${result.againstCpuUsPerCall} µs → ${result.againstRatio}× the proxy; this gateway is ${result.gatewayOverAgainst}× it\n`);
mkdirSync(join(here, 'out'), { recursive: true });
writeFileSync(join(here, 'out', 'gateway-cpu-vs-proxy.json'), `${JSON.stringify(result, null, 2)}\n`);
await gateway.close();
keys.close();
if (other) {
  await other.server.close();
  other.store.close();
}
proxy.close();
upstream.close();
clientAgent.destroy();
proxyAgent.destroy();
process.exitCode = result.ratio <= LIMIT ? 0 : 1;
