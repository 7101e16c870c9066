/**
 * Issue 16 item 2: what changes a bill beyond the body's text. `previous_response_id` is
 * reserved at the previous response's bill as the gateway's own settlement saw it; images by
 * the providers' published formulas (the mock upstream bills them by its own copy of those
 * formulas); a continuation the gateway cannot bound is a protocol-shaped 400 on a budgeted key.
 */
import { afterAll, beforeAll, describe, expect, onTestFinished, test } from 'vitest';
import { KeyStore } from '../src/gateway/keys/key-store.js';
import { startGateway, type Gateway } from '../src/gateway/server.js';
import { RecordingSink } from '../src/gateway/test-support/harness.js';
import { startMockUpstream, type MockUpstream } from './support/mock-upstream.js';
import { publishedPromptBill } from './support/published-billing.js';

let upstream: MockUpstream;
let gateway: Gateway;
let keys: KeyStore;
const sink = new RecordingSink();
let sessions = 0;

beforeAll(async () => {
  upstream = await startMockUpstream({ answerTokens: 300 });
  keys = KeyStore.open(':memory:');
  gateway = await startGateway({ upstream: `${upstream.url}/v1`, keys, sink });
});
afterAll(async () => {
  await gateway.close();
  await upstream.close();
  keys.close();
});

function mint(budget: number | undefined): { secret: string; who: string; id: string } {
  const { key, secret } = keys.create({ budget, tags: {} });
  sessions += 1;
  return { secret, who: `extras-${sessions}`, id: key.id };
}

async function post(path: string, secret: string, who: string, body: Record<string, unknown>): Promise<{ status: number; json: Record<string, unknown> }> {
  const response = await fetch(`${gateway.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${secret}`, 'x-claude-code-session-id': who, 'anthropic-version': '2023-06-01' },
    body: JSON.stringify(body),
  });
  return { status: response.status, json: (await response.json()) as Record<string, unknown> };
}

/** A PNG's signature and IHDR chunk: enough for anyone who reads the size from the header. */
function png(width: number, height: number): string {
  const header = Buffer.alloc(33);
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(header, 0);
  header.writeUInt32BE(13, 8);
  header.write('IHDR', 12, 'latin1');
  header.writeUInt32BE(width, 16);
  header.writeUInt32BE(height, 20);
  header.set([8, 6, 0, 0, 0], 24);
  // A few KB of pixels: their base64 is far more text tokens than the image bills.
  return Buffer.concat([header, Buffer.alloc(6000, 7)]).toString('base64');
}

const RESPONSES = '/v1/responses';
const recordOf = (id: string) => sink.records.filter((record) => record.key_id === id);

describe('previous_response_id', () => {
  test("a continuation is reserved at the previous response's bill, so Σ billed stays within B", async () => {
    const { secret, who, id } = mint(20_000);
    const first = await post(RESPONSES, secret, who, { model: 'm', input: 'Start a long story.', max_output_tokens: 2000 });
    expect(first.status).toBe(200);
    let previous = first.json['id'] as string;
    for (let turn = 0; turn < 6; turn += 1) {
      const next = await post(RESPONSES, secret, who, { model: 'm', input: 'Go on.', previous_response_id: previous, max_output_tokens: 2000 });
      if (next.status !== 200) {
        // A spent key on the Responses API is a 400 budget_exhausted (what Codex shows and does not retry).
        expect(next.status).toBe(400);
        expect((next.json['error'] as Record<string, unknown>)['code']).toBe('budget_exhausted');
        break;
      }
      previous = next.json['id'] as string;
    }
    expect(upstream.billedBy(who)).toBeLessThanOrEqual(20_000);
    for (const record of recordOf(id)) {
      expect(record.over_reservation).toBeUndefined();
      if (record.total_tokens !== undefined) expect(record.total_tokens).toBeLessThanOrEqual(record.reserved_tokens ?? 0);
    }
    // The chain grew: each continuation billed more prompt than the one before.
    const prompts = upstream.bills.filter((bill) => bill.who === who).map((bill) => bill.prompt);
    expect(prompts.length).toBeGreaterThan(2);
    expect(prompts[2]).toBeGreaterThan(prompts[1] ?? Infinity);
  });

  test('an id the gateway never relayed is a protocol-shaped 400 on a budgeted key, and passes on a key without budget', async () => {
    const { secret, who } = mint(20_000);
    const body = { model: 'm', input: 'Go on.', previous_response_id: 'resp_from_elsewhere', max_output_tokens: 100 };
    const reply = await post(RESPONSES, secret, who, body);
    expect(reply.status).toBe(400);
    const error = reply.json['error'] as Record<string, unknown>;
    expect(error['message']).toContain('previous_response_id');
    expect(error['code']).toBe('unestimable_field');
    expect(upstream.billedBy(who)).toBe(0);
    const open = mint(undefined);
    expect((await post(RESPONSES, open.secret, open.who, body)).status).toBe(200);
  });
});

describe('images', () => {
  test.each([
    { name: 'chat, detail high, 2048×1536 inline', path: '/v1/chat/completions', content: [{ type: 'text', text: 'What is in it?' }, { type: 'image_url', image_url: { url: `data:image/png;base64,${png(2048, 1536)}`, detail: 'high' } }], max: 'max_tokens' },
    { name: 'chat, detail low, inline', path: '/v1/chat/completions', content: [{ type: 'image_url', image_url: { url: `data:image/png;base64,${png(4000, 3000)}`, detail: 'low' } }], max: 'max_tokens' },
    { name: 'chat, a remote image (size unknown)', path: '/v1/chat/completions', content: [{ type: 'image_url', image_url: { url: 'https://example.com/cat.png' } }], max: 'max_tokens' },
    { name: 'messages, 1000×1000 base64', path: '/v1/messages', content: [{ type: 'image', source: { type: 'base64', media_type: 'image/png', data: png(1000, 1000) } }, { type: 'text', text: 'Describe.' }], max: 'max_tokens' },
    { name: 'messages, 3000×2000 base64 (scaled down)', path: '/v1/messages', content: [{ type: 'image', source: { type: 'base64', media_type: 'image/png', data: png(3000, 2000) } }], max: 'max_tokens' },
  ])('$name: reserved at least what the upstream bills, and the pixels are not counted as text', async ({ path, content, max }) => {
    // Billed as the providers publish (a named model bills no JSON punctuation, and its image by its own table).
    upstream.set({ answerTokens: 300, promptBill: publishedPromptBill() });
    onTestFinished(() => upstream.set({ answerTokens: 300 }));
    const { secret, who, id } = mint(20_000);
    // Named models: each image is reserved by its model's table (an unknown name gets the largest one).
    const model = path.endsWith('/messages') ? 'claude-sonnet-4-20250514' : 'gpt-4o';
    const reply = await post(path, secret, who, { model, messages: [{ role: 'user', content }], [max]: 100 });
    expect(reply.status).toBe(200);
    const [record] = recordOf(id);
    expect(record?.over_reservation).toBeUndefined();
    expect(record?.total_tokens).toBeLessThanOrEqual(record?.reserved_tokens ?? 0);
    // Base64 of 6 KB of pixels is ~4,000 text tokens; the formulas give at most 3,279 per image.
    expect(record?.prompt_estimate ?? Infinity).toBeLessThan(3279 + 200 * 1.6 + 16);
  });
});

describe('new text on a budgeted key', () => {
  /** ~20 KB of prose no earlier request sent (so no chunk of it is in the count cache). */
  const prose = (seed: number): string => Array.from({ length: 3000 }, (_, i) => `word${(i * 7919 + seed * 104729) % 100003}`).join(' ');

  test('is reserved at its byte bound when the key can afford it, counted first when it cannot; both hold the bill', async () => {
    const roomy = mint(1_000_000);
    const text = prose(1);
    expect((await post('/v1/chat/completions', roomy.secret, roomy.who, { model: 'm', messages: [{ role: 'user', content: text }], max_tokens: 100 })).status).toBe(200);
    const [bounded] = recordOf(roomy.id);
    // The bound: at least one token a byte of the new text.
    expect(bounded?.prompt_estimate).toBeGreaterThanOrEqual(Buffer.byteLength(text));
    expect(bounded?.total_tokens).toBeLessThanOrEqual(bounded?.reserved_tokens ?? 0);

    const tight = mint(Buffer.byteLength(text));
    const other = prose(2);
    expect((await post('/v1/chat/completions', tight.secret, tight.who, { model: 'm', messages: [{ role: 'user', content: other }], max_tokens: 100 })).status).toBe(200);
    const [counted] = recordOf(tight.id);
    // Counted before admission: far below the byte bound, and still at least the bill.
    expect(counted?.prompt_estimate).toBeLessThan(Buffer.byteLength(other) / 2);
    expect(counted?.total_tokens).toBeLessThanOrEqual(counted?.reserved_tokens ?? 0);
    expect(upstream.billedBy(tight.who)).toBeLessThanOrEqual(Buffer.byteLength(text));
  });
});

describe('the learned ratio', () => {
  test('a key is reserved at the seed ratio until it has settled 20 calls of one shape, then at the worst ratio seen plus 5 %, shown on each record', async () => {
    upstream.set({ answerTokens: 300, promptFactor: 1.3 });
    try {
      const { secret, who, id } = mint(1_000_000);
      for (let i = 0; i < 22; i += 1) {
        const content = `Question ${i}: ${'Explain how a token budget is enforced across concurrent calls. '.repeat(8 + (i % 4))}`;
        expect((await post('/v1/chat/completions', secret, who, { model: 'ratio-model', messages: [{ role: 'user', content }], max_tokens: 50 })).status).toBe(200);
      }
      const ratios = recordOf(id).map((record) => record.estimate_ratio);
      for (const ratio of ratios.slice(0, 20)) expect(ratio).toBe(1.6);
      for (const ratio of ratios.slice(20)) {
        // Billed ≈ 1.3 × the text (+ the JSON the mock bills): below the seed, above o200k's 1.
        expect(ratio).toBeLessThan(1.6);
        expect(ratio).toBeGreaterThan(1);
      }
      for (const record of recordOf(id)) expect(record.total_tokens).toBeLessThanOrEqual(record.reserved_tokens ?? 0);
    } finally {
      upstream.set({ answerTokens: 300 });
    }
  });
});
