#!/usr/bin/env node
/**
 * The long version of test/gateway-replicas.test.ts's kill case (issue 13, item 5): --trials
 * times, three `isobudget gateway --db` replicas serve one fresh key worth 20,000 tokens; 150
 * concurrent mixed calls (OpenAI chat and Anthropic messages, streamed or not) go to them in
 * turn, and one replica, chosen at random, is `kill -9`ed at a random moment of the load, then
 * restarted. The upstream is a mock on 127.0.0.1 that bills every request when it arrives, at
 * its full cap, under the caller's session id. After each trial, once the dead replica is
 * reclaimed and the others have settled: Σ billed ≤ 20,000, spent ≥ billed, every billed call
 * has its gateway_calls row, spent = Σ booked_tokens, nothing left reserved. With --lease, the
 * calls a dead replica had in flight are covered by its lease's one unknown_after_crash row
 * (booked whole) instead of a row each: that is counted, not failed.
 *
 *   node bench/gateway-replicas-kill.mjs [--trials 10] [--lease TOKENS] [--db URL] [--seed 1] [--quiet]
 *
 * Writes bench/out/<name>.json (default gateway-replicas-kill). Exit 1 if any trial breaks.
 */
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import pg from 'pg';

const here = dirname(fileURLToPath(import.meta.url));
const BIN = join(here, '..', 'dist', 'cli', 'bin.js');
const { values } = parseArgs({
  options: {
    trials: { type: 'string', default: '10' },
    lease: { type: 'string' },
    db: { type: 'string' },
    seed: { type: 'string', default: '1' },
    name: { type: 'string', default: 'gateway-replicas-kill' },
    quiet: { type: 'boolean', default: false },
    cases: { type: 'string' },
    concurrency: { type: 'string' },
    dist: { type: 'string' },
  },
});
const BUDGET = 20_000;
const CALLS = 150;
const log = (line) => void (values.quiet || process.stderr.write(`${line}\n`));
// A fixed-seed generator (mulberry32): which replica dies and when are reproducible.
let seed = Number(values.seed) >>> 0;
const random = () => {
  seed = (seed + 0x6d2b79f5) >>> 0;
  let t = seed;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};

// ------------------------------------------------------------------ database
const serverUrl = values.db ?? process.env.ISOBUDGET_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const schema = `bench_gwkill_${randomBytes(4).toString('hex')}`;
const admin = new pg.Client({ connectionString: serverUrl, connectionTimeoutMillis: 3000 });
try {
  await admin.connect();
} catch (error) {
  process.stderr.write(`bench gateway-replicas-kill: skipped, no PostgreSQL at ${serverUrl.replace(/:[^:@/]*@/, ':***@')} (${error.code ?? error.message})\n`);
  process.exit(0);
}
await admin.query(`CREATE SCHEMA ${schema}`);
await admin.query(`SET search_path = ${schema}`);
const dbUrl = (() => {
  const url = new URL(serverUrl);
  url.searchParams.set('options', `-c search_path=${schema}`);
  return url.toString();
})();
const cli = (...args) => {
  const out = spawnSync(process.execPath, [BIN, ...args, '--db', dbUrl], { encoding: 'utf8' });
  if (out.status !== 0) throw new Error(`isobudget ${args.slice(0, 3).join(' ')} failed: ${out.stderr}`);
  return out.stdout.trim();
};
cli('db', 'migrate');

// ------------------------------------------------------------------ mock upstream: bills on arrival, at the full cap
const billed = new Map();
const upstream = createServer((request, response) => {
  let text = '';
  request.on('data', (chunk) => (text += chunk));
  request.on('end', () => {
    const body = JSON.parse(text);
    const completion = Number(body.max_completion_tokens ?? body.max_tokens ?? 0);
    const prompt = 12;
    const who = String(request.headers['x-claude-code-session-id'] ?? 'unknown');
    billed.set(who, (billed.get(who) ?? 0) + prompt + completion);
    setTimeout(() => answer(request.url ?? '', body, prompt, completion, response), 5 + Math.floor(random() * 55));
  });
});
function answer(url, body, prompt, completion, response) {
  if (response.destroyed) return;
  const data = (value, event) => `${event ? `event: ${event}\n` : ''}data: ${JSON.stringify(value)}\n\n`;
  const messages = url.includes('/messages');
  if (body.stream !== true) {
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify(messages
      ? { id: 'msg_1', type: 'message', role: 'assistant', model: 'mock', content: [{ type: 'text', text: 'ok' }], stop_reason: 'max_tokens', usage: { input_tokens: prompt, output_tokens: completion } }
      : { id: 'c1', object: 'chat.completion', model: 'mock', choices: [{ index: 0, message: { role: 'assistant', content: 'ok' }, finish_reason: 'length' }], usage: { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion } }));
    return;
  }
  response.writeHead(200, { 'content-type': 'text/event-stream' });
  response.end(messages
    ? [
        data({ type: 'message_start', message: { id: 'msg_1', type: 'message', role: 'assistant', model: 'mock', content: [], usage: { input_tokens: prompt, output_tokens: 1 } } }, 'message_start'),
        data({ type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }, 'content_block_start'),
        data({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'ok' } }, 'content_block_delta'),
        data({ type: 'message_delta', delta: { stop_reason: 'max_tokens' }, usage: { output_tokens: completion } }, 'message_delta'),
        data({ type: 'message_stop' }, 'message_stop'),
      ].join('')
    : [
        data({ id: 'c1', object: 'chat.completion.chunk', model: 'mock', choices: [{ index: 0, delta: { content: 'ok' }, finish_reason: 'length' }] }),
        data({ id: 'c1', object: 'chat.completion.chunk', model: 'mock', choices: [], usage: { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion } }),
        'data: [DONE]\n\n',
      ].join(''));
}
await new Promise((resolve) => upstream.listen(0, '127.0.0.1', resolve));
const upstreamUrl = `http://127.0.0.1:${upstream.address().port}`;

// ------------------------------------------------------------------ replicas
function startReplica() {
  const args = [BIN, 'gateway', '--db', dbUrl, '--upstream', `${upstreamUrl}/v1`, '--port', '0', '--quiet', '--replica-timeout', '2s', ...(values.lease ? ['--budget-lease', values.lease] : [])];
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  return new Promise((resolve, reject) => {
    let text = '';
    child.stdout.on('data', (chunk) => {
      text += chunk;
      const match = /listening on (http:\/\/\S+)/.exec(text);
      if (match) resolve({ child, url: match[1], pid: child.pid, exited });
    });
    child.once('exit', (code) => reject(new Error(`replica exited ${code}`)));
  });
}
const replicas = await Promise.all([startReplica(), startReplica(), startReplica()]);

function call(url, secret, i, who) {
  const cap = 40 + ((i * 37) % 200);
  const stream = i % 4 === 1 || i % 4 === 3;
  const anthropic = i % 4 >= 2;
  const body = { model: 'mock', max_tokens: cap, messages: [{ role: 'user', content: `call ${i}: say something` }], ...(stream ? { stream: true } : {}) };
  return fetch(`${url}${anthropic ? '/v1/messages' : '/v1/chat/completions'}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${secret}`, 'x-claude-code-session-id': who, 'anthropic-version': '2023-06-01' },
    body: JSON.stringify(body),
  }).then(
    async (r) => {
      await r.text();
      return r.status;
    },
    () => 0,
  );
}
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

const trials = [];
for (let trial = 0; trial < Number(values.trials); trial += 1) {
  const minted = JSON.parse(cli('gateway', 'keys', 'create', '--budget', String(BUDGET), '--json'));
  const victim = Math.floor(random() * 3);
  const killAt = Math.floor(random() * 400);
  const started = performance.now();
  const killedPid = replicas[victim].pid;
  let down = -1;
  const killing = sleep(killAt).then(async () => {
    down = victim;
    replicas[victim].child.kill('SIGKILL');
    await replicas[victim].exited;
    replicas[victim] = await startReplica();
    down = -1;
  });
  // Call i goes to replica i mod 3, or — while that one is down — to the next (as a load balancer would).
  const pick = (i) => replicas[i % 3 === down ? (i + 1) % 3 : i % 3].url;
  const statuses = await Promise.all(Array.from({ length: CALLS }, (_, i) => sleep(Math.floor(i * 2)).then(() => call(pick(i), minted.key, i, `t${trial}-${i}`))));
  await killing;
  // The dead replica is reclaimed (2 s without a heartbeat), the others settle what they served.
  let reclaimed = false;
  for (const deadline = Date.now() + 15_000; Date.now() < deadline; await sleep(100)) {
    const state = (await admin.query('SELECT state FROM gateway_replicas WHERE pid = $1 ORDER BY started_at DESC LIMIT 1', [killedPid])).rows[0]?.state;
    const open = (await admin.query(`SELECT count(*)::int AS n FROM gateway_reservations WHERE key_id = $1 AND tokens > 0`, [minted.id])).rows[0].n;
    reclaimed = state === 'reclaimed';
    if (reclaimed && open === 0) break;
  }
  const bills = [...billed].filter(([who]) => who.startsWith(`t${trial}-`));
  const billedTokens = bills.reduce((sum, [, tokens]) => sum + tokens, 0);
  const key = (await admin.query('SELECT spent, reserved FROM gateway_keys WHERE id = $1', [minted.id])).rows[0];
  const rows = (await admin.query('SELECT session_id, booked_tokens, outcome FROM gateway_calls WHERE key_id = $1', [minted.id])).rows;
  const recorded = new Set(rows.map((r) => r.session_id));
  const result = {
    trial, victim, kill_at_ms: killAt, reclaimed, billed_calls: bills.length, billed: billedTokens, spent: Number(key.spent), reserved: Number(key.reserved),
    booked: rows.reduce((sum, r) => sum + Number(r.booked_tokens), 0), unknown_after_crash: rows.filter((r) => r.outcome === 'unknown_after_crash').length,
    missing: bills.filter(([who]) => !recorded.has(who)).length, ok: statuses.filter((s) => s === 200).length, failed: statuses.filter((s) => s !== 200 && s !== 429).length,
    seconds: +((performance.now() - started) / 1000).toFixed(1),
    statuses: Object.fromEntries([...new Set(statuses)].map((s) => [s, statuses.filter((t) => t === s).length])),
  };
  // With a lease, calls the dead replica had in flight are covered by its lease's one unknown_after_crash row (booked whole), not a row each.
  result.holds = result.reclaimed && result.billed <= BUDGET && result.spent >= result.billed && (values.lease !== undefined || result.missing === 0) && result.spent === result.booked && result.reserved === 0 && result.spent <= BUDGET;
  trials.push(result);
  log(`trial ${trial + 1}: killed replica ${victim} at ${killAt} ms; billed ${result.billed} (${result.billed_calls} calls), spent ${result.spent}, ${result.unknown_after_crash} unknown_after_crash, ${result.missing} billed calls without a row${values.lease !== undefined ? ' (covered by the lease row)' : ''}, ${result.ok} × 200, ${result.failed} cut (statuses ${JSON.stringify(result.statuses)}): ${result.holds ? 'holds' : 'BROKEN'}`);
}

for (const replica of replicas) {
  replica.child.kill('SIGTERM');
  await replica.exited;
}
upstream.close();
await admin.query(`DROP SCHEMA ${schema} CASCADE`);
await admin.end();
const report = { name: values.name, trials, lease_tokens: values.lease === undefined ? null : Number(values.lease), seed: Number(values.seed), holds: trials.every((t) => t.holds) };
mkdirSync(join(here, 'out'), { recursive: true });
writeFileSync(join(here, 'out', `${values.name}.json`), `${JSON.stringify(report, null, 2)}\n`);
process.stdout.write(`gateway replicas${values.lease === undefined ? '' : ` leasing ${values.lease}`}, kill -9 at random moments: ${trials.filter((t) => t.holds).length}/${trials.length} trials hold (Σ billed ≤ ${BUDGET}, spent ≥ billed, ${values.lease === undefined ? 'every billed call recorded' : 'billed calls without a row of their own covered by their lease row'}); max billed ${Math.max(...trials.map((t) => t.billed))}, Σ unknown_after_crash ${trials.reduce((s, t) => s + t.unknown_after_crash, 0)}\n`);
process.exit(report.holds ? 0 : 1);
