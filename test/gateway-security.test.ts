/**
 * DESIGN §1 invariant 6 for the gateway: the upstream key never appears in a response, the
 * ledger or a log — even when the upstream echoes it; a client's key never goes upstream;
 * a non-loopback bind needs an explicit flag and an access token; oversize bodies get a
 * clean 413.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { IsobudgetError } from '../src/core/errors.js';
import { DailyLedger, KeyStore, startGateway } from '../src/gateway/index.js';
import { makeScrubber } from '../src/gateway/scrubber.js';
import { startHarness, type Harness } from '../src/gateway/test-support/harness.js';
import { startStubServer } from '../src/providers/test-support/stub-server.js';
import { BIN, runCli } from './support/cli.js';
import { readTree } from './support/experiment.js';

const UPSTREAM_KEY = 'sk-upstream-RECOGNISABLE-0123456789abcdef';

interface Seen { status: number; headers: string; body: string }
async function call(url: string, init: RequestInit): Promise<Seen> {
  const response = await fetch(url, init);
  return { status: response.status, headers: JSON.stringify([...response.headers]), body: await response.text() };
}
const json = (key: string, body: unknown, extra: Record<string, string> = {}): RequestInit => ({ method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...extra }, body: JSON.stringify(body) });

describe('the upstream key', () => {
  let h: Harness;
  let ledgerDir: string;
  let ledger: DailyLedger;
  beforeAll(async () => {
    ledgerDir = mkdtempSync(join(tmpdir(), 'isobudget-gw-sec-'));
    ledger = new DailyLedger(ledgerDir, makeScrubber(UPSTREAM_KEY).text);
    h = await startHarness({ sim: { seed: 4, requireApiKey: UPSTREAM_KEY }, gateway: { upstreamKey: UPSTREAM_KEY }, sink: ledger });
  });
  afterAll(async () => {
    await h.close();
  });

  test('goes upstream (the sim demands it) but never back, into the ledger or a log', async () => {
    const key = h.mint(3000);
    const seen: Seen[] = [];
    const user = [{ role: 'user', content: 'What is 2 + 2?' }];
    seen.push(await call(`${h.gateway.url}/v1/messages?beta=true`, json(key, { model: 'sim-small', max_tokens: 100, messages: user }, { 'x-api-key': key })));
    seen.push(await call(`${h.gateway.url}/v1/messages`, json(key, { model: 'sim-small', max_tokens: 100, stream: true, messages: user })));
    seen.push(await call(`${h.gateway.url}/v1/chat/completions`, json(key, { model: 'sim-small', stream: true, messages: user })));
    seen.push(await call(`${h.gateway.url}/v1/responses`, json(key, { model: 'sim-small', input: 'What is 2 + 2?' })));
    seen.push(await call(`${h.gateway.url}/v1/models`, { headers: { authorization: `Bearer ${key}` } }));
    seen.push(await call(`${h.gateway.url}/v1/messages`, json(key, { model: 'sim-small', max_tokens: 5, messages: [] }))); // upstream 400: no messages
    seen.push(await call(`${h.gateway.url}/v1/messages`, json('ibk-unknown', { model: 'sim-small', max_tokens: 5, messages: user })));
    seen.push(await call(`${h.gateway.url}/v1/messages`, json(h.mint(5), { model: 'sim-small', max_tokens: 5, messages: user }))); // budget 429
    expect(seen.map((s) => s.status)).toEqual([200, 200, 200, 200, 200, 400, 401, 429]);
    await ledger.flush();
    // It reached the upstream …
    expect(h.sim.lastHeaders().filter((headers) => headers['x-api-key'] === UPSTREAM_KEY || headers['authorization'] === `Bearer ${UPSTREAM_KEY}`).length).toBeGreaterThanOrEqual(6);
    // … and nothing else.
    for (const s of seen) expect(`${s.headers}${s.body}`).not.toContain(UPSTREAM_KEY);
    for (const { file, text } of readTree(ledgerDir)) expect(text.includes(UPSTREAM_KEY), file).toBe(false);
    expect(h.logs.join('\n')).not.toContain(UPSTREAM_KEY);
    expect(h.logs.length).toBeGreaterThanOrEqual(5);
  });

  test('a client key is never forwarded upstream: the upstream sees only the gateway\'s credential', () => {
    for (const headers of h.sim.lastHeaders()) {
      expect(JSON.stringify(headers)).not.toContain('ibk-');
      expect(headers['authorization'] === undefined || headers['authorization'] === `Bearer ${UPSTREAM_KEY}`).toBe(true);
      expect(headers['x-api-key'] === undefined || headers['x-api-key'] === UPSTREAM_KEY).toBe(true);
    }
  });

  test('an upstream that echoes the key (error body, stream, header) is scrubbed', async () => {
    const stub = await startStubServer((request) => {
      const given = String(request.headers['x-api-key'] ?? request.headers.authorization ?? '');
      if (request.path.startsWith('/v1/messages')) return { kind: 'json', status: 401, headers: { 'x-echo': given }, body: { type: 'error', error: { type: 'authentication_error', message: `Incorrect API key provided: ${given}` } } };
      return { kind: 'text', contentType: 'text/event-stream', text: `data: {"echo":"${given}","choices":[]}\n\ndata: [DONE]\n\n` };
    });
    const keys = KeyStore.open(':memory:');
    const dir = mkdtempSync(join(tmpdir(), 'isobudget-gw-echo-'));
    const sink = new DailyLedger(dir, makeScrubber(UPSTREAM_KEY).text);
    const logs: string[] = [];
    const gateway = await startGateway({ upstream: stub.url, upstreamKey: UPSTREAM_KEY, keys, sink, log: (line) => logs.push(line) });
    try {
      const key = keys.create({ budget: 10_000, tags: {} }).secret;
      const error = await call(`${gateway.url}/v1/messages`, json(key, { model: 'm', max_tokens: 10, messages: [] }));
      const stream = await call(`${gateway.url}/v1/chat/completions`, json(key, { model: 'm', stream: true, messages: [] }));
      expect(error.status).toBe(401);
      expect(error.body).toContain('Incorrect API key provided: [redacted]');
      expect(stream.status).toBe(200);
      await sink.close();
      for (const text of [error.headers, error.body, stream.headers, stream.body, logs.join('\n'), ...readTree(dir).map((f) => f.text)]) expect(text).not.toContain(UPSTREAM_KEY);
      // The echoed key did reach the gateway: the upstream really had it.
      expect(JSON.stringify(stub.requests.map((r) => r.headers))).toContain(UPSTREAM_KEY);
    } finally {
      await gateway.close();
      await stub.close();
      keys.close();
    }
  });
});

describe('binding', () => {
  test('a non-loopback address needs --allow-remote and an access token, then every request needs the token', async () => {
    const keys = KeyStore.open(':memory:');
    const sink = { write: () => undefined, close: async () => undefined };
    await expect(startGateway({ upstream: 'http://127.0.0.1:9', host: '0.0.0.0', keys, sink })).rejects.toThrow(IsobudgetError);
    await expect(startGateway({ upstream: 'http://127.0.0.1:9', host: '0.0.0.0', allowRemote: true, keys, sink })).rejects.toThrow(/access token/);
    const token = 'access-token-0123456789abcdef';
    const sim = await startHarness();
    const gateway = await startGateway({ upstream: sim.sim.url, host: '0.0.0.0', allowRemote: true, accessToken: token, keys, sink });
    try {
      const key = keys.create({ budget: undefined, tags: {} }).secret;
      const url = `http://127.0.0.1:${gateway.port}/v1/chat/completions`;
      const body = { model: 'sim-small', messages: [{ role: 'user', content: 'hi' }] };
      expect((await call(url, json(key, body))).status).toBe(401);
      expect((await call(url, json(key, body, { 'x-isobudget-access-token': `${token}x` }))).status).toBe(401);
      expect((await call(url, json(key, body, { 'x-isobudget-access-token': token }))).status).toBe(200);
      expect(JSON.stringify(sim.sim.lastHeaders())).not.toContain(token);
    } finally {
      await gateway.close();
      await sim.close();
      keys.close();
    }
  });

  test('the CLI refuses a non-loopback bind (exit 2) and says how to allow it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'isobudget-gw-cli-'));
    const refused = await runCli(['gateway', '--upstream', 'http://127.0.0.1:9', '--host', '0.0.0.0', '--port', '0', '--data-dir', dir]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('not a loopback address');
    expect(refused.stderr).toContain('--allow-remote');
    const noToken = await runCli(['gateway', '--upstream', 'http://127.0.0.1:9', '--host', '0.0.0.0', '--port', '0', '--allow-remote', '--data-dir', dir]);
    expect(noToken.code).toBe(2);
    expect(noToken.stderr).toContain('access token');
  });
});

describe('request size', () => {
  test('a body over the limit gets a clean, protocol-shaped 413 and never reaches the upstream', async () => {
    const h = await startHarness({ gateway: { maxBodyBytes: 64 * 1024 } });
    try {
      const key = h.mint(1_000_000);
      const before = h.sim.stats.requests;
      const big = { model: 'sim-small', max_tokens: 10, messages: [{ role: 'user', content: 'x'.repeat(300 * 1024) }] };
      const tooLarge = await call(`${h.gateway.url}/v1/messages`, json(key, big));
      expect(tooLarge.status).toBe(413);
      expect(JSON.parse(tooLarge.body)).toEqual({ type: 'error', error: { type: 'request_too_large', message: expect.stringContaining('65536-byte limit') } });
      const chat = await call(`${h.gateway.url}/v1/chat/completions`, json(key, { ...big, messages: big.messages }));
      expect(chat.status).toBe(413);
      expect(JSON.parse(chat.body).error.code).toBe('request_too_large');
      expect(h.sim.stats.requests).toBe(before);
      // The gateway is still fine afterwards.
      expect((await call(`${h.gateway.url}/v1/messages`, json(key, { ...big, messages: [{ role: 'user', content: 'hi' }] }))).status).toBe(200);
    } finally {
      await h.close();
    }
  });
});

describe('the gateway CLI as a process', () => {
  test('prints where it listens, never the upstream key; its files hold no key', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'isobudget-gw-proc-'));
    const h = await startHarness({ sim: { requireApiKey: UPSTREAM_KEY } });
    const minted = await runCli(['gateway', 'keys', 'create', '--budget', '5000', '--tag', 'run=cli,arm=candidate_single', '--data-dir', dir]);
    expect(minted.code, minted.stderr).toBe(0);
    const key = minted.stdout.trim();
    const child = spawn(process.execPath, [BIN, 'gateway', '--upstream', h.sim.url, '--port', '0', '--data-dir', dir], { env: { PATH: process.env.PATH, ISOBUDGET_UPSTREAM_API_KEY: UPSTREAM_KEY }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout.on('data', (chunk: Buffer) => {
        stdout += chunk.toString();
        const match = /listening on (http:\/\/\S+)/.exec(stdout);
        if (match?.[1]) resolve(match[1]);
      });
      child.on('exit', () => reject(new Error(`gateway exited: ${stderr}`)));
    });
    const reply = await call(`${url}/v1/messages`, json(key, { model: 'sim-small', max_tokens: 64, stream: true, messages: [{ role: 'user', content: 'What is 1 + 1?' }] }));
    expect(reply.status).toBe(200);
    // Keys minted and revoked from another process while the gateway runs take effect at once.
    const later = (await runCli(['gateway', 'keys', 'create', '--budget', '100', '--data-dir', dir])).stdout.trim();
    const hello = { model: 'sim-small', max_tokens: 5, messages: [{ role: 'user', content: 'hi' }] };
    expect((await call(`${url}/v1/messages`, json(later, hello))).status).toBe(200);
    expect((await runCli(['gateway', 'keys', 'revoke', later.slice(4, 16), '--data-dir', dir])).code).toBe(0);
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect((await call(`${url}/v1/messages`, json(later, hello))).status).toBe(401);
    const exited = new Promise((resolve) => child.on('exit', resolve));
    child.kill('SIGTERM');
    await exited;
    await h.close();
    expect(stdout).toContain('(value not shown)');
    for (const text of [stdout, stderr, reply.body, reply.headers, ...readTree(dir).map((f) => f.text)]) expect(text).not.toContain(UPSTREAM_KEY);
    // The ledger has the call; the key store has no key secret.
    const shown = await runCli(['gateway', 'ledger', 'show', '--data-dir', dir]);
    expect(shown.stdout).toMatch(/cli \/ candidate_single\s+1 calls\s+\d+ tokens/);
    // The untagged key's call; the refused one after revocation never became a call.
    expect(shown.stdout).toMatch(/gateway \/ gateway\s+1 calls/);
    for (const { text } of readTree(dir)) expect(text).not.toContain(key);
  });
});
