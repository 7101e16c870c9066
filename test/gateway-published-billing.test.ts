/**
 * Issue 20 items 4 and 5 (the estimator): an upstream on 127.0.0.1 bills exactly as the
 * providers publish (test/support/published-billing.ts) — per-message framing, image tables
 * per model, Anthropic's tool-use system prompt and the fixed definitions of its tools — and
 * a budgeted key must bill at most its budget, or be refused. Before the estimator counted
 * billable content by published rules, each of these went over: gpt-4o-mini's image table
 * (2,910 billed where 466 was reserved), a Claude-Code-like call with the text editor tool
 * (1,107 on a 1,000 key), and a ratio learned from one key's short turns (0.67, JSON
 * punctuation counted as prompt) lowering every other key's reservation.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { SEED_RATIO } from '../src/estimate/billing-ratios.js';
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
  upstream = await startMockUpstream({ answerTokens: 40, promptBill: publishedPromptBill() });
  keys = KeyStore.open(':memory:');
  gateway = await startGateway({ upstream: `${upstream.url}/v1`, keys, sink });
});
afterAll(async () => {
  await gateway.close();
  await upstream.close();
  keys.close();
});

function mint(budget: number): { secret: string; who: string; id: string } {
  const { key, secret } = keys.create({ budget, tags: {} });
  sessions += 1;
  return { secret, who: `published-${sessions}`, id: key.id };
}

async function post(path: string, secret: string, who: string, body: Record<string, unknown>): Promise<number> {
  const response = await fetch(`${gateway.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${secret}`, 'x-claude-code-session-id': who, 'anthropic-version': '2023-06-01' },
    body: JSON.stringify(body),
  });
  await response.arrayBuffer();
  return response.status;
}

const recordsOf = (id: string) => sink.records.filter((record) => record.key_id === id);

/** Every answered call of the key held its bill within its reservation, and the key within its budget. */
function expectHeld(key: { who: string; id: string }, budget: number): void {
  expect(upstream.billedBy(key.who)).toBeLessThanOrEqual(budget);
  for (const record of recordsOf(key.id)) {
    expect(record.over_reservation).toBeUndefined();
    if (record.total_tokens !== undefined) expect(record.total_tokens).toBeLessThanOrEqual(record.reserved_tokens ?? 0);
  }
}

/** A PNG's signature and IHDR chunk (the size is all a bill reads), plus a few bytes of pixels. */
function png(width: number, height: number): string {
  const header = Buffer.alloc(33);
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(header, 0);
  header.writeUInt32BE(13, 8);
  header.write('IHDR', 12, 'latin1');
  header.writeUInt32BE(width, 16);
  header.writeUInt32BE(height, 20);
  return Buffer.concat([header, Buffer.alloc(600, 7)]).toString('base64');
}

const CHAT = '/v1/chat/completions';
const MESSAGES = '/v1/messages';

describe('images by the model’s table', () => {
  const imageBody = (model: string, detail: string) => ({
    model,
    max_tokens: 40,
    messages: [
      {
        role: 'user',
        content: [
          { type: 'text', text: 'What is in this picture? Answer in one short sentence, please.' },
          { type: 'image_url', image_url: { url: `data:image/png;base64,${png(640, 480)}`, detail } },
        ],
      },
    ],
  });

  test('gpt-4o-mini (2,833 + 5,667 a tile): a 1,000 key cannot afford one low-detail image; a roomy key holds the bill', async () => {
    const small = mint(1000);
    const status = await post(CHAT, small.secret, small.who, imageBody('gpt-4o-mini', 'low'));
    expectHeld(small, 1000);
    expect(status).toBe(429);
    const roomy = mint(30_000);
    expect(await post(CHAT, roomy.secret, roomy.who, imageBody('gpt-4o-mini', 'high'))).toBe(200);
    expectHeld(roomy, 30_000);
    // 2,833 + 5,667 × 2 tiles for 640×480 at high detail.
    expect(upstream.billedBy(roomy.who)).toBeGreaterThan(2833 + 2 * 5667);
  });

  test('gpt-4o (85 + 170 a tile) is reserved by its own table, not gpt-4o-mini’s', async () => {
    const key = mint(1000);
    expect(await post(CHAT, key.secret, key.who, imageBody('gpt-4o', 'high'))).toBe(200);
    expectHeld(key, 1000);
    expect(recordsOf(key.id)[0]?.prompt_estimate).toBeLessThan(1000);
  });

  test('a model no table matches is reserved at the largest table (gpt-4o-mini’s)', async () => {
    const key = mint(30_000);
    expect(await post(CHAT, key.secret, key.who, imageBody('vision-model-x', 'low'))).toBe(200);
    expect(recordsOf(key.id)[0]?.prompt_estimate).toBeGreaterThanOrEqual(2833);
  });
});

describe('Anthropic’s tool-use system prompt and defined tools', () => {
  const claudeCodeLike = (tools: unknown[], toolChoice?: unknown) => ({
    model: 'claude-sonnet-4-20250514',
    max_tokens: 40,
    system: 'You are a careful coding agent. Make the smallest change that fixes the problem.',
    messages: [{ role: 'user', content: 'The README has a typo in its first heading: "Instalation". Fix it.' }],
    tools,
    ...(toolChoice === undefined ? {} : { tool_choice: toolChoice }),
  });

  test('an honest call with the text editor tool (346 + 700 tokens the body does not show) is refused on a 1,000 key and held on a roomy one', async () => {
    const body = claudeCodeLike([{ type: 'text_editor_20250728', name: 'str_replace_based_edit_tool' }]);
    const small = mint(1000);
    const status = await post(MESSAGES, small.secret, small.who, body);
    expectHeld(small, 1000);
    expect(status).toBe(429);
    const roomy = mint(3000);
    expect(await post(MESSAGES, roomy.secret, roomy.who, body)).toBe(200);
    expectHeld(roomy, 3000);
    expect(upstream.billedBy(roomy.who)).toBeGreaterThan(1000);
  });

  test('bash with tool_choice any, and a custom tool: every bill within its reservation', async () => {
    const key = mint(5000);
    const custom = {
      name: 'run_tests',
      description: 'Runs the project tests and returns their output.',
      input_schema: { type: 'object', properties: { filter: { type: 'string', description: 'Only tests whose name contains this.' } } },
    };
    expect(await post(MESSAGES, key.secret, key.who, claudeCodeLike([{ type: 'bash_20250124', name: 'bash' }], { type: 'any' }))).toBe(200);
    expect(await post(MESSAGES, key.secret, key.who, claudeCodeLike([custom]))).toBe(200);
    expectHeld(key, 5000);
  });
});

describe('the learned ratio, per shape and key', () => {
  // A model that does not bill with o200k: its own tokenizer makes 1.3× as many tokens.
  const model = 'qwen-max';
  /** An honest chat of 30 short turns: most of its JSON is punctuation no provider bills. */
  const shortTurns = (seed: number) => ({
    model,
    max_tokens: 20,
    messages: Array.from({ length: 30 }, (_, i) => ({ role: i % 2 === 0 ? 'user' : 'assistant', content: i % 2 === 0 ? `ok ${seed}-${i}?` : 'yes' })),
  });
  /** One long page of prose (~3,240 o200k tokens; billed ~4,210 by the foreign tokenizer). */
  const prose = (seed: number) => ({
    model,
    max_tokens: 100,
    messages: [{ role: 'user', content: Array.from({ length: 360 }, (_, i) => `Sentence ${seed}.${i} explains budgets plainly.`).join(' ') }],
  });

  test("one key's short turns lower no other key's reservation, nor its own for another shape", async () => {
    upstream.set({ answerTokens: 40, promptBill: publishedPromptBill({ factor: 1.3 }) });
    try {
      const teacher = mint(1_000_000);
      for (let call = 0; call < 25; call += 1) expect(await post(CHAT, teacher.secret, teacher.who, shortTurns(call))).toBe(200);
      expectHeld(teacher, 1_000_000);
      // Fresh keys: prose billed ~4,200 prompt tokens. A 4,000 key is refused; a 6,000 key holds its bill.
      const fresh = mint(4000);
      const status = await post(CHAT, fresh.secret, fresh.who, prose(1));
      expectHeld(fresh, 4000);
      expect(status).toBe(429);
      const roomy = mint(6000);
      expect(await post(CHAT, roomy.secret, roomy.who, prose(2))).toBe(200);
      expectHeld(roomy, 6000);
      expect(recordsOf(roomy.id)[0]?.estimate_ratio).toBe(SEED_RATIO);
      // Counted by their billable text, short turns bill above the seed (3 tokens a message of framing on a few
      // tokens of text): what they teach raises the factor; nothing lowers it (lowering: gateway-billing-extras.test.ts).
      for (const record of recordsOf(teacher.id)) expect(record.estimate_ratio).toBeGreaterThanOrEqual(SEED_RATIO);
      // The teacher's own prose is another shape: reserved at the bound too, and held.
      const before = upstream.billedBy(teacher.who);
      expect(await post(CHAT, teacher.secret, teacher.who, prose(3))).toBe(200);
      expect(recordsOf(teacher.id).at(-1)?.estimate_ratio).toBe(SEED_RATIO);
      expectHeld(teacher, before + 6000);
    } finally {
      upstream.set({ answerTokens: 40, promptBill: publishedPromptBill() });
    }
  });

  test('a model that bills with o200k is reserved at its published count (ratio 1), and its bills hold', async () => {
    const key = mint(6000);
    expect(await post(CHAT, key.secret, key.who, { ...prose(4), model: 'gpt-4o' })).toBe(200);
    expectHeld(key, 6000);
    expect(recordsOf(key.id)[0]?.estimate_ratio).toBe(1);
  });
});
