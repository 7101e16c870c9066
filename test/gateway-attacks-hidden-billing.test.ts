/**
 * Issue 20, gateway items: what a provider bills that the body does not show where the gateway
 * looked, usage an upstream reports wrongly, compressed answers, duplicate keys, streams of
 * keep-alives, query strings. The mock upstream (test/support/mock-upstream.ts) bills by the
 * providers' published rules (images in tool outputs too, stored items, files, web search) and
 * can misbehave as asked. For every attack: Σ billed per key ≤ its budget, or the call was
 * refused before it left.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { KeyStore } from '../src/gateway/keys/key-store.js';
import { startGateway, type Gateway } from '../src/gateway/server.js';
import { RecordingSink } from '../src/gateway/test-support/harness.js';
import { startMockUpstream, type MockUpstream } from './support/mock-upstream.js';

const UPSTREAM_KEY = 'sk-upstream-SECRET-0123456789abcdef';
let upstream: MockUpstream;
let gateway: Gateway;
let keys: KeyStore;
const sink = new RecordingSink();
let sessions = 0;

beforeAll(async () => {
  upstream = await startMockUpstream();
  keys = KeyStore.open(':memory:');
  gateway = await startGateway({ upstream: `${upstream.url}/v1`, upstreamKey: UPSTREAM_KEY, keys, sink });
});
afterAll(async () => {
  await gateway.close();
  await upstream.close();
  keys.close();
});

type Body = Record<string, unknown>;
const CHAT = '/v1/chat/completions';
const MESSAGES = '/v1/messages';
const RESPONSES = '/v1/responses';

function mint(budget: number | undefined): { secret: string; who: string; id: string } {
  const { key, secret } = keys.create({ budget, tags: {} });
  sessions += 1;
  return { secret, who: `hidden-${sessions}`, id: key.id };
}

/** Posts raw text (so a test controls every byte) or a body; returns status, headers and text as a client sees them. */
async function post(path: string, secret: string, who: string, body: Body | string, target = gateway): Promise<{ status: number; text: string; json: Record<string, unknown> }> {
  const response = await fetch(`${target.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${secret}`, 'x-claude-code-session-id': who, 'anthropic-version': '2023-06-01' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  // A stream the gateway cut ends the body early: the client sees the cut, the test the status.
  const text = await response.text().catch(() => '');
  let json: Record<string, unknown> = {};
  try {
    json = JSON.parse(text) as Record<string, unknown>;
  } catch {
    // A stream.
  }
  return { status: response.status, text, json };
}

/** Sends the body until the key refuses (at most `tries` times); returns the statuses. */
async function drain(path: string, budget: number, body: Body | string, tries = 6): Promise<{ who: string; id: string; statuses: number[] }> {
  const { secret, who, id } = mint(budget);
  const statuses: number[] = [];
  for (let i = 0; i < tries; i += 1) {
    const reply = await post(path, secret, who, body);
    statuses.push(reply.status);
    if (reply.status !== 200) break;
  }
  return { who, id, statuses };
}

/** A model name of its own per test: the ratio the estimator learns per (upstream, model) must not carry one test's bills into another's reservation. */
let models = 0;
const freshModel = (family: string): string => `${family}-attack-${(models += 1)}`;

const codeOf = (json: Record<string, unknown>): unknown => (json['error'] as Body | undefined)?.['code'];

/** A PNG's signature and IHDR chunk only: a few bytes of text, an image billed by its size. */
function png(width: number, height: number): string {
  const header = Buffer.alloc(33);
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(header, 0);
  header.writeUInt32BE(13, 8);
  header.write('IHDR', 12, 'latin1');
  header.writeUInt32BE(width, 16);
  header.writeUInt32BE(height, 20);
  return `data:image/png;base64,${header.toString('base64')}`;
}

describe('item 2: Responses input the gateway never looked at', () => {
  test('images inside a function_call_output array are reserved: Σ billed ≤ B', async () => {
    const images = Array.from({ length: 4 }, () => ({ type: 'input_image', image_url: png(2048, 1024), detail: 'high' }));
    const body = { model: freshModel('gpt-4o'), max_output_tokens: 100, input: [{ type: 'function_call_output', call_id: 'c1', output: [{ type: 'input_text', text: 'the screenshots' }, ...images] }] };
    const { who, statuses } = await drain(RESPONSES, 3_000, body);
    expect(upstream.billedBy(who)).toBeLessThanOrEqual(3_000);
    // A spent key on the Responses API: 400 budget_exhausted (what Codex shows and does not retry).
    expect(statuses.at(-1)).toBe(400);
  });

  test('computer_call_output screenshots (inline and by file id) are reserved: Σ billed ≤ B', async () => {
    const body = { model: freshModel('gpt-4o'), max_output_tokens: 100, input: [
      { type: 'computer_call_output', call_id: 'c1', output: { type: 'computer_screenshot', image_url: png(2048, 1024) } },
      { type: 'computer_call_output', call_id: 'c2', output: { type: 'input_image', file_id: 'file_123' } },
    ] };
    // The upstream bills 1,105 + 765 for the two images: more than the key holds.
    const { who, statuses } = await drain(RESPONSES, 1_500, body);
    expect(upstream.billedBy(who)).toBeLessThanOrEqual(1_500);
    expect(statuses).toEqual([400]);
  });

  test.each([
    ['an item_reference', { type: 'item_reference', id: 'msg_stored_1' }],
    ['an input_file inside a function_call_output', { type: 'function_call_output', call_id: 'c1', output: [{ type: 'input_file', file_id: 'file_1' }] }],
  ])('%s is refused with the protocol’s 400 unestimable_field on a budgeted key, and passes on a key without budget', async (_name, item) => {
    const body = { model: 'gpt-4o', max_output_tokens: 100, input: [{ role: 'user', content: 'go on' }, item] };
    const { secret, who } = mint(1_000);
    const reply = await post(RESPONSES, secret, who, body);
    expect(reply.status).toBe(400);
    expect(codeOf(reply.json)).toBe('unestimable_field');
    expect(upstream.billedBy(who)).toBe(0);
    const open = mint(undefined);
    expect((await post(RESPONSES, open.secret, open.who, body)).status).toBe(200);
  });
});

describe('item 3: a JSON escape does not hide an image', () => {
  test.each([
    // Every `"image` of the raw text escaped: a raw-text pre-check would find none.
    ['chat "\\u0069mage_url"', CHAT, `{"model":"${freshModel('gpt-4o')}","max_tokens":100,"messages":[{"role":"user","content":[{"type":"text","text":"what is it?"},{"type":"\\u0069mage_url","\\u0069mage_url":{"url":"${png(2048, 1024).replace('image', '\\u0069mage')}","detail":"high"}}]}]}`],
    ['messages "\\u0069mage"', MESSAGES, `{"model":"${freshModel('claude')}","max_tokens":100,"messages":[{"role":"user","content":[{"type":"\\u0069mage","source":{"type":"base64","media_type":"\\u0069mage/png","data":"${png(1568, 1568).slice(22)}"}}]}]}`],
  ])('%s: Σ billed ≤ B', async (_name, path, raw) => {
    expect(raw).not.toContain('"image');
    const { who, statuses } = await drain(path, 1_000, raw);
    expect(upstream.billedBy(who)).toBeLessThanOrEqual(1_000);
    expect(statuses).toEqual([429]);
  });
});

describe('item 5: web search the body switches on', () => {
  test.each([
    ['an OpenRouter :online model', { model: 'openai/gpt-4o:online' }],
    ['the web plugin', { model: 'openai/gpt-4o', plugins: [{ id: 'web', max_results: 5 }] }],
    ['web_search_options', { model: 'gpt-4o-search-preview', web_search_options: { search_context_size: 'low' } }],
  ])('%s is refused with 400 unestimable_field on a budgeted key', async (_name, fields) => {
    const { secret, who } = mint(1_000);
    const reply = await post(CHAT, secret, who, { ...fields, max_tokens: 100, messages: [{ role: 'user', content: 'news today?' }] });
    expect(reply.status).toBe(400);
    expect(codeOf(reply.json)).toBe('unestimable_field');
    expect(upstream.billedBy(who)).toBe(0);
  });
});

describe('item 6: usage taken at face value', () => {
  test.each([
    ['negative completion_tokens (JSON)', CHAT, 'negative', false],
    ['a total below its parts (JSON)', RESPONSES, 'short-total', false],
    ['a negative message_delta (stream)', MESSAGES, 'negative', true],
    ['a trailing zero usage event (Anthropic stream)', MESSAGES, 'trailing-zero', true],
    ['a trailing zero usage chunk (chat stream)', CHAT, 'trailing-zero', true],
  ] as const)('%s: booked as billed or at the reservation, Σ billed ≤ B', async (_name, path, usage, stream) => {
    upstream.set({ usage, answerTokens: 400 });
    try {
      const body = { model: 'm', max_tokens: 500, max_output_tokens: path === RESPONSES ? 500 : undefined, stream, messages: [{ role: 'user', content: 'Tell a story.' }], input: path === RESPONSES ? 'Tell a story.' : undefined };
      const { who, id, statuses } = await drain(path, 2_000, body, 8);
      expect(upstream.billedBy(who)).toBeLessThanOrEqual(2_000);
      expect(statuses.at(-1)).not.toBe(200);
      // What the key was charged covers what was billed: nothing was credited.
      const booked = sink.records.filter((entry) => entry.key_id === id).reduce((sum, entry) => sum + (entry.booked_tokens ?? 0), 0);
      expect(booked).toBeGreaterThanOrEqual(upstream.billedBy(who));
    } finally {
      upstream.set({});
    }
  });
});

describe('item 7: compressed upstream answers', () => {
  const visible = (text: string): boolean => text.includes(UPSTREAM_KEY);
  test.each([
    ['a 200 JSON answer', {}, false],
    ['a 401', { status: 401 }, false],
    ['an SSE stream', {}, true],
  ])('%s in gzip is decompressed and scrubbed: the upstream key never reaches the client', async (_name, options, stream) => {
    upstream.set({ compress: 'gzip', echoCredential: true, answerTokens: 50, ...options });
    try {
      const { secret, who, id } = mint(10_000);
      const reply = await post(MESSAGES, secret, who, { model: 'claude', max_tokens: 100, stream, messages: [{ role: 'user', content: 'hi' }] });
      expect(reply.text.length).toBeGreaterThan(0);
      expect(visible(reply.text)).toBe(false);
      expect(reply.text).toContain('[redacted]'.slice(0, stream ? 0 : 10));
      const [record] = sink.records.filter((entry) => entry.key_id === id);
      expect(JSON.stringify(record)).not.toContain(UPSTREAM_KEY);
      // The usage was read from the decompressed bytes: booked at the bill, not the reservation.
      if (reply.status === 200) expect(record?.total_tokens).toBe(upstream.billedBy(who));
    } finally {
      upstream.set({});
    }
  });
});

describe('item 7: other codings', () => {
  test.each(['deflate', 'br'] as const)('a %s JSON answer is decompressed, scrubbed and its usage read', async (compress) => {
    upstream.set({ compress, echoCredential: true, answerTokens: 50 });
    try {
      const { secret, who, id } = mint(10_000);
      const reply = await post(CHAT, secret, who, { model: 'm', max_tokens: 100, messages: [{ role: 'user', content: 'hi' }] });
      expect(reply.status).toBe(200);
      expect(reply.text).not.toContain(UPSTREAM_KEY);
      expect(reply.text).toContain('[redacted]');
      expect(sink.records.find((entry) => entry.key_id === id)?.total_tokens).toBe(upstream.billedBy(who));
    } finally {
      upstream.set({});
    }
  });

  test('a coding the gateway cannot undo is a 502, none of its bytes relayed, and the reservation booked', async () => {
    upstream.set({ compress: 'x-unknown', echoCredential: true, answerTokens: 50 });
    try {
      const { secret, who, id } = mint(10_000);
      const reply = await post(CHAT, secret, who, { model: 'm', max_tokens: 100, messages: [{ role: 'user', content: 'hi' }] });
      expect(reply.status).toBe(502);
      expect(codeOf(reply.json)).toBe('upstream_encoding');
      expect(reply.text).not.toContain(UPSTREAM_KEY);
      const record = sink.records.find((entry) => entry.key_id === id);
      expect(record?.booked_tokens).toBe(record?.reserved_tokens);
      expect(record?.booked_tokens ?? 0).toBeGreaterThanOrEqual(upstream.billedBy(who));
    } finally {
      upstream.set({});
    }
  });
});

describe('item 8: duplicate keys', () => {
  test('a cap given twice is refused on a budgeted key (the upstream would read the first): Σ billed ≤ B', async () => {
    upstream.set({ firstDuplicate: true });
    try {
      const raw = '{"model":"m","max_tokens":50000,"messages":[{"role":"user","content":"Write a long story."}],"max_tokens":10}';
      const { secret, who } = mint(1_000);
      const reply = await post(CHAT, secret, who, raw);
      expect(reply.status).toBe(400);
      expect(codeOf(reply.json)).toBe('duplicate_key');
      expect(upstream.billedBy(who)).toBeLessThanOrEqual(1_000);
    } finally {
      upstream.set({});
    }
  });

  test('a repeated image detail deep in the messages is refused too', async () => {
    const raw = `{"model":"gpt-4o","max_tokens":10,"messages":[{"role":"user","content":[{"type":"image_url","image_url":{"url":"${png(2048, 1024)}","detail":"high","detail":"low"}}]}]}`;
    const { secret, who } = mint(5_000);
    expect((await post(CHAT, secret, who, raw)).status).toBe(400);
  });
});

describe('item 10: the query string', () => {
  test('a virtual key in ?key= never reaches the provider; ?beta=true does', async () => {
    const { secret, who } = mint(10_000);
    const before = upstream.urls.length;
    const reply = await post(`${MESSAGES}?beta=true&key=${secret}`, secret, who, { model: 'claude', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] });
    expect(reply.status).toBe(200);
    const sent = upstream.urls.slice(before);
    expect(sent).toEqual(['/v1/messages?beta=true']);
    expect(sent.join('')).not.toContain('ibk-');
  });
});

describe('300 concurrent mixed calls on a key worth one call', () => {
  test('admit exactly one', async () => {
    // The first call to get the budget is admitted (its cap clamped to what is left) and bills
    // its prompt (1.5× our count, a foreign tokenizer) + its cap; what it leaves (a tenth of
    // its prompt plus its protocol's overhead) cannot hold another call's prompt estimate.
    upstream.set({ promptFactor: 1.5 });
    const budget = 560;
    const { secret, who } = mint(budget);
    const model = freshModel('m');
    const text = 'Write a long story about a lighthouse keeper.';
    const shapes: Array<{ path: string; body: Body | string }> = [
      { path: CHAT, body: { model, max_tokens: 500, messages: [{ role: 'user', content: text }] } },
      { path: CHAT, body: { model, max_tokens: 500, stream: true, messages: [{ role: 'user', content: text }] } },
      { path: MESSAGES, body: { model, max_tokens: 500, stream: true, messages: [{ role: 'user', content: text }] } },
      { path: RESPONSES, body: { model, max_output_tokens: 500, input: text } },
      { path: CHAT, body: `{"model":"${model}","max_tokens":50000,"messages":[{"role":"user","content":"${text}"}],"max_tokens":500}` },
      { path: CHAT, body: { model: `${model}:online`, max_tokens: 500, messages: [{ role: 'user', content: text }] } },
      { path: RESPONSES, body: { model, max_output_tokens: 500, input: [{ type: 'function_call_output', call_id: 'c', output: [{ type: 'input_image', image_url: png(2048, 2048) }] }] } },
    ];
    const statuses = await Promise.all(Array.from({ length: 300 }, (_, i) => {
      const { path, body } = shapes[i % shapes.length] as { path: string; body: Body | string };
      return post(path, secret, who, body).then((reply) => reply.status);
    })).finally(() => upstream.set({}));
    expect(statuses.filter((status) => status === 200)).toHaveLength(1);
    expect(statuses.every((status) => status === 200 || status === 400 || status === 429), statuses.join(',')).toBe(true);
    expect(upstream.billedBy(who)).toBeLessThanOrEqual(budget);
  });
});

describe('item 9: deadlines', () => {
  let strict: Gateway;
  beforeAll(async () => {
    strict = await startGateway({ upstream: `${upstream.url}/v1`, keys, sink, timeouts: { idleMs: 400, maxCallMs: 60_000 } });
  });
  afterAll(() => strict.close());

  test.each([MESSAGES, CHAT])('%s: a stream of keep-alive pings is cut after --idle-timeout, and its reservation is booked', async (path) => {
    upstream.set({ pingEveryMs: 20 });
    try {
      const { secret, who, id } = mint(5_000);
      await post(path, secret, who, { model: 'm', max_tokens: 500, stream: true, messages: [{ role: 'user', content: 'hi' }], stream_options: { include_usage: true } }, strict);
      const [record] = sink.records.filter((entry) => entry.key_id === id);
      expect(record?.error).toContain('keep-alives are not progress');
      expect(record?.booked_tokens).toBe(record?.reserved_tokens);
      expect(strict.inFlight.count()).toBe(0);
    } finally {
      upstream.set({});
    }
  });

  test('--max-call-duration ends a call that keeps sending', async () => {
    const short = await startGateway({ upstream: `${upstream.url}/v1`, keys, sink, timeouts: { idleMs: 60_000, maxCallMs: 600 } });
    upstream.set({ pingEveryMs: 20 });
    try {
      const { secret, who, id } = mint(5_000);
      await post(MESSAGES, secret, who, { model: 'm', max_tokens: 500, stream: true, messages: [{ role: 'user', content: 'hi' }] }, short);
      const [record] = sink.records.filter((entry) => entry.key_id === id);
      expect(record?.error).toContain('longest call duration');
      expect(record?.booked_tokens).toBe(record?.reserved_tokens);
      expect(short.inFlight.count()).toBe(0);
    } finally {
      upstream.set({});
      await short.close();
    }
  });
});
