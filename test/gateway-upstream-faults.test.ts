/**
 * What a slow, hung or leaky upstream and a departing or oversized client can no longer do
 * (issue 16, items 5, 6 and 9): a key echoed across two chunks reaches no client; a hung
 * upstream is cut by the first-byte and idle limits, and a client that leaves takes its
 * upstream request with it and frees the key's next call at once; a declared body over the
 * limit gets its 413 before a byte of it is read.
 */
import { connect } from 'node:net';
import { afterEach, describe, expect, test } from 'vitest';
import { KeyStore } from '../src/gateway/keys/key-store.js';
import { startGateway, type Gateway, type GatewayOptions } from '../src/gateway/server.js';
import { RecordingSink } from '../src/gateway/test-support/harness.js';
import { startMockUpstream, type MockUpstream, type MockUpstreamOptions } from './support/mock-upstream.js';

const UPSTREAM_KEY = 'sk-upstream-0123456789abcdefghijklmnop';
const MESSAGES = [{ role: 'user', content: 'Say something.' }];
const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function setup(mock: MockUpstreamOptions, options: Partial<GatewayOptions> = {}): Promise<{ upstream: MockUpstream; gateway: Gateway; keys: KeyStore; sink: RecordingSink }> {
  const upstream = await startMockUpstream(mock);
  const keys = KeyStore.open(':memory:');
  const sink = new RecordingSink();
  const gateway = await startGateway({ upstream: `${upstream.url}/v1`, upstreamKey: UPSTREAM_KEY, keys, sink, ...options });
  cleanups.push(async () => {
    await gateway.close();
    await upstream.close();
    keys.close();
  });
  return { upstream, gateway, keys, sink };
}

function post(gateway: Gateway, path: string, secret: string, body: Record<string, unknown>, signal?: AbortSignal): Promise<Response> {
  return fetch(`${gateway.url}${path}`, { method: 'POST', signal, headers: { 'content-type': 'application/json', authorization: `Bearer ${secret}`, 'anthropic-version': '2023-06-01' }, body: JSON.stringify(body) });
}

describe('streamed secrets', () => {
  test.each(['/v1/messages', '/v1/chat/completions'])('an upstream key cut in two by a chunk boundary is masked (%s)', async (path) => {
    const { gateway, keys, upstream } = await setup({ echo: `echo ${UPSTREAM_KEY} echo`, answerTokens: 5 });
    const secret = keys.create({ budget: 100_000, tags: {} }).secret;
    const response = await post(gateway, path, secret, { model: 'm', max_tokens: 50, stream: true, messages: MESSAGES });
    const reader = response.body?.getReader();
    const chunks: string[] = [];
    for (let read = await reader?.read(); read && !read.done; read = await reader?.read()) chunks.push(Buffer.from(read.value).toString('utf8'));
    const text = chunks.join('');
    expect(upstream.received).toBe(1);
    expect(text).not.toContain(UPSTREAM_KEY);
    // Masked in place, same length: the stream is otherwise intact and still parses.
    expect(text).toContain(`echo ${'*'.repeat(UPSTREAM_KEY.length)} echo`);
    expect(text).toMatch(/message_stop|\[DONE\]/);
  });
});

describe('a hung upstream', () => {
  test('no answer within --first-byte-timeout: 504, and the reservation is booked (the upstream had the request)', async () => {
    const { gateway, keys, sink } = await setup({ hang: true }, { timeouts: { firstByteMs: 300 } });
    const { key, secret } = keys.create({ budget: 10_000, tags: {} });
    const started = performance.now();
    const response = await post(gateway, '/v1/chat/completions', secret, { model: 'm', max_tokens: 100, messages: MESSAGES });
    expect(response.status).toBe(504);
    expect(performance.now() - started).toBeLessThan(3_000);
    expect((await response.json()) as unknown).toMatchObject({ error: { message: expect.stringContaining('no answer within 300 ms') } });
    const record = sink.records.at(-1);
    expect(record).toMatchObject({ key_id: key.id, status: 504, booked_tokens: record?.reserved_tokens });
    expect(record?.reserved_tokens).toBeGreaterThan(100);
  });

  test('silence mid-stream past --idle-timeout cuts the stream and books the reservation', async () => {
    const { gateway, keys, sink } = await setup({ stallMs: 5_000 }, { timeouts: { idleMs: 300 } });
    const { key, secret } = keys.create({ budget: 10_000, tags: {} });
    const started = performance.now();
    const response = await post(gateway, '/v1/messages', secret, { model: 'm', max_tokens: 100, stream: true, messages: MESSAGES });
    await response.text().catch(() => '');
    expect(performance.now() - started).toBeLessThan(3_000);
    const record = sink.records.at(-1);
    expect(record).toMatchObject({ key_id: key.id, error: expect.stringContaining('sent nothing for 300 ms'), booked_tokens: record?.reserved_tokens });
  });

  test('a client that leaves aborts its upstream request, and the key\'s next call is answered at once', async () => {
    const { gateway, keys, sink, upstream } = await setup({ hang: true });
    const { key, secret } = keys.create({ budget: 1_000, tags: {} });
    const leaving = new AbortController();
    // No cap: this call reserves the whole budget, so the next one has to wait for it to settle.
    const first = post(gateway, '/v1/chat/completions', secret, { model: 'm', messages: MESSAGES }, leaving.signal).catch(() => undefined);
    // Leave once the upstream has the request (a fixed 200 ms was too short on a loaded CI machine).
    await expect.poll(() => upstream.received, { timeout: 10_000, interval: 10 }).toBe(1);
    leaving.abort();
    await first;
    const started = performance.now();
    const next = await post(gateway, '/v1/chat/completions', secret, { model: 'm', max_tokens: 10, messages: MESSAGES });
    expect(performance.now() - started).toBeLessThan(2_000);
    // The abandoned call may have been billed: its reservation (the whole budget) is booked, so the key is spent.
    expect(next.status).toBe(429);
    expect(upstream.abandoned).toBe(1);
    expect(sink.records.find((r) => r.key_id === key.id && r.finish_reason_raw === 'client_closed')).toMatchObject({ booked_tokens: 1_000, error: expect.stringContaining('client closed') });
  });
});

describe('declared body size', () => {
  /** Raw HTTP: headers declaring `length`, then a little of the body; resolves with the status line and how long it took. */
  function declare(gateway: Gateway, secret: string, length: string, extra: Record<string, string> = {}): Promise<{ status: string; ms: number }> {
    return new Promise((resolve, reject) => {
      const socket = connect(gateway.port, '127.0.0.1');
      const started = performance.now();
      let text = '';
      socket.on('data', (chunk) => {
        text += chunk.toString();
        const line = text.split('\r\n')[0] ?? '';
        if (line.startsWith('HTTP/1.1 4') || line.startsWith('HTTP/1.1 5')) {
          resolve({ status: line, ms: performance.now() - started });
          socket.destroy();
        }
      });
      socket.on('error', reject);
      socket.setTimeout(5_000, () => {
        resolve({ status: `no answer: ${text.slice(0, 40)}`, ms: performance.now() - started });
        socket.destroy();
      });
      const headers = Object.entries({ host: 'x', authorization: `Bearer ${secret}`, 'content-type': 'application/json', 'content-length': length, ...extra }).map(([k, v]) => `${k}: ${v}`).join('\r\n');
      socket.write(`POST /v1/chat/completions HTTP/1.1\r\n${headers}\r\n\r\n`);
      if (extra['expect'] === undefined) socket.write(`{"model":"m","messages":[${' '.repeat(64 * 1024)}`);
    });
  }

  test.each([String(100 * 1024 * 1024), String(1024 * 1024 * 1024), '99999999999999'])('Content-Length %s: a 413 before the body is read', async (length) => {
    const { gateway, keys } = await setup({});
    const { status, ms } = await declare(gateway, keys.create({ budget: 1_000, tags: {} }).secret, length);
    expect(status).toBe('HTTP/1.1 413 Payload Too Large');
    expect(ms).toBeLessThan(1_000);
  });

  test('Expect: 100-continue with a body too large: 413 and no 100 Continue', async () => {
    const { gateway, keys } = await setup({});
    const { status } = await declare(gateway, keys.create({ budget: 1_000, tags: {} }).secret, String(1024 * 1024 * 1024), { expect: '100-continue' });
    expect(status).toBe('HTTP/1.1 413 Payload Too Large');
  });
});
