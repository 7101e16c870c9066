/**
 * The gateway against a hostile client and a vLLM-like upstream (test/support/mock-upstream.ts:
 * it honours `max_completion_tokens` over `max_tokens`, coerces string numbers, generates
 * every sequence to its cap, and can bill more prompt than it was sent). For every attack:
 * the upstream's bills for the key stay within its budget, or the gateway refused the call
 * before it left. Issue 16, items 1 and 2 (over_reservation).
 */
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { readJsonl } from '../src/ledger/jsonl-reader.js';
import type { CallRecord, ResultRecord } from '../src/ledger/records.js';
import { runPaths } from '../src/ledger/run-dir.js';
import { runExperiment } from '../src/runner/run-experiment.js';
import { writeExperiment } from './support/experiment.js';
import { KeyStore } from '../src/gateway/keys/key-store.js';
import { startGateway, type Gateway } from '../src/gateway/server.js';
import { RecordingSink } from '../src/gateway/test-support/harness.js';
import { startMockUpstream, type MockUpstream } from './support/mock-upstream.js';

let upstream: MockUpstream;
let gateway: Gateway;
let keys: KeyStore;
const sink = new RecordingSink();
let sessions = 0;

beforeAll(async () => {
  upstream = await startMockUpstream();
  keys = KeyStore.open(':memory:');
  gateway = await startGateway({ upstream: `${upstream.url}/v1`, keys, sink });
});
afterAll(async () => {
  await gateway.close();
  await upstream.close();
  keys.close();
});

const B = 1000;
const MESSAGES = [{ role: 'user', content: 'Write a long story about a lighthouse keeper.' }];
type Body = Record<string, unknown>;

/** A key and the session id its calls carry (what the upstream bills them under). */
function mint(budget: number): { secret: string; who: string; id: string } {
  const { key, secret } = keys.create({ budget, tags: {} });
  sessions += 1;
  return { secret, who: `attack-${sessions}`, id: key.id };
}

async function post(path: string, secret: string, who: string, body: Body): Promise<{ status: number; json: Record<string, unknown> }> {
  const response = await fetch(`${gateway.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${secret}`, 'x-claude-code-session-id': who, 'anthropic-version': '2023-06-01' },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  let json: Record<string, unknown> = {};
  try {
    json = JSON.parse(text) as Record<string, unknown>;
  } catch {
    // An SSE body: its usage is what the upstream billed, counted there.
  }
  return { status: response.status, json };
}

const CHAT = '/v1/chat/completions';
const MESSAGES_PATH = '/v1/messages';
const RESPONSES = '/v1/responses';

describe('each attack: Σ billed per key ≤ B, or the call is refused before it leaves', () => {
  test.each([
    { name: 'max_tokens 10 beside max_completion_tokens 100000 (the upstream honours the second)', path: CHAT, body: { model: 'm', messages: MESSAGES, max_tokens: 10, max_completion_tokens: 100_000 } },
    { name: "n as a string '8'", path: CHAT, body: { model: 'm', messages: MESSAGES, max_tokens: 100, n: '8' } },
    { name: "max_completion_tokens as a string '5000'", path: CHAT, body: { model: 'm', messages: MESSAGES, max_completion_tokens: '5000' } },
    { name: 'n 2.5 (the upstream floors it)', path: CHAT, body: { model: 'm', messages: MESSAGES, max_tokens: 400, n: 2.5 } },
    { name: 'best_of 8 (eight sequences generated, one returned)', path: CHAT, body: { model: 'm', messages: MESSAGES, max_tokens: 400, best_of: 8 } },
    { name: 'a null max_tokens beside a string cap', path: CHAT, body: { model: 'm', messages: MESSAGES, max_tokens: null, max_completion_tokens: '100000' } },
    { name: 'Anthropic body with a foreign max_completion_tokens a router honours', path: MESSAGES_PATH, body: { model: 'm', messages: MESSAGES, max_tokens: 10, max_completion_tokens: 100_000 } },
    { name: 'Anthropic max_tokens as a string', path: MESSAGES_PATH, body: { model: 'm', messages: MESSAGES, max_tokens: '100000' } },
    { name: 'Responses body with a foreign max_tokens and no max_output_tokens', path: RESPONSES, body: { model: 'm', input: MESSAGES, max_tokens: 100_000 } },
    { name: 'Responses max_output_tokens as a string', path: RESPONSES, body: { model: 'm', input: MESSAGES, max_output_tokens: '100000' } },
    { name: 'streamed chat with both caps', path: CHAT, body: { model: 'm', messages: MESSAGES, stream: true, max_tokens: 10, max_completion_tokens: 100_000 } },
  ])('$name', async ({ path, body }) => {
    const { secret, who } = mint(B);
    const statuses: number[] = [];
    // Three tries: a key that is spent answers 429, and still bills nothing more.
    for (let i = 0; i < 3; i += 1) statuses.push((await post(path, secret, who, body)).status);
    expect(upstream.billedBy(who), `statuses ${statuses.join(',')}`).toBeLessThanOrEqual(B);
  });
});

describe('refusals are protocol-shaped and name the field', () => {
  test.each([
    { path: CHAT, body: { n: '8' }, param: 'n', status: 400 },
    { path: CHAT, body: { max_completion_tokens: '5000' }, param: 'max_completion_tokens', status: 400 },
    { path: CHAT, body: { max_tokens: -5 }, param: 'max_tokens', status: 400 },
    { path: CHAT, body: { max_tokens: 0 }, param: 'max_tokens', status: 400 },
    { path: CHAT, body: { max_tokens: true }, param: 'max_tokens', status: 400 },
    { path: MESSAGES_PATH, body: { max_tokens: 12.5 }, param: 'max_tokens', status: 400 },
    { path: RESPONSES, body: { max_output_tokens: '9' }, param: 'max_output_tokens', status: 400 },
  ])('$path $body → $status', async ({ path, body, param, status }) => {
    const { secret, who } = mint(B);
    const reply = await post(path, secret, who, { model: 'm', messages: MESSAGES, input: path === RESPONSES ? MESSAGES : undefined, ...body });
    expect(reply.status).toBe(status);
    const error = reply.json['error'] as Record<string, unknown>;
    if (path === MESSAGES_PATH) expect(reply.json).toMatchObject({ type: 'error', error: { type: 'invalid_request_error' } });
    else expect(error).toMatchObject({ type: 'invalid_request_error', code: 'invalid_budget_field' });
    expect(String(error['message'])).toContain(`'${param}' must be a positive integer`);
    expect(upstream.billedBy(who)).toBe(0);
  });

  test.each([
    { name: 'chat audio output', path: CHAT, body: { model: 'm', messages: MESSAGES, modalities: ['text', 'audio'], audio: { voice: 'alloy', format: 'wav' } }, says: "'audio'" },
    { name: 'chat input audio part', path: CHAT, body: { model: 'm', messages: [{ role: 'user', content: [{ type: 'input_audio', input_audio: { data: 'AAAA', format: 'wav' } }] }] }, says: 'input_audio' },
    { name: 'chat file part', path: CHAT, body: { model: 'm', messages: [{ role: 'user', content: [{ type: 'file', file: { file_id: 'file-1' } }] }] }, says: "'file'" },
    { name: 'responses hosted web search', path: RESPONSES, body: { model: 'm', input: MESSAGES, tools: [{ type: 'web_search' }] }, says: 'web_search' },
    { name: 'responses input file', path: RESPONSES, body: { model: 'm', input: [{ role: 'user', content: [{ type: 'input_file', file_id: 'file-1' }] }] }, says: 'input_file' },
    { name: 'anthropic PDF document', path: MESSAGES_PATH, body: { model: 'm', max_tokens: 10, messages: [{ role: 'user', content: [{ type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: 'JVBERi0=' } }] }] }, says: 'document' },
    { name: 'anthropic server web search', path: MESSAGES_PATH, body: { model: 'm', max_tokens: 10, messages: MESSAGES, tools: [{ type: 'web_search_20250305', name: 'web_search' }] }, says: 'web_search_20250305' },
  ])('budgeted keys refuse what cannot be bounded: $name (a protocol-shaped 400)', async ({ path, body, says }) => {
    const { secret, who } = mint(B);
    const reply = await post(path, secret, who, body);
    expect(reply.status).toBe(400);
    expect(JSON.stringify(reply.json)).toContain(says);
    expect(upstream.billedBy(who)).toBe(0);
    // A key without a budget only records: the same call passes.
    const { key, secret: open } = keys.create({ budget: undefined, tags: {} });
    expect((await post(path, open, `${who}-open`, body)).status).toBe(200);
    expect(key.budget).toBeUndefined();
  });
});

describe('a bill above its reservation', () => {
  test('is recorded as over_reservation and closes the key at once; the next call is refused', async () => {
    upstream.set({ promptFactor: 4 });
    try {
      const { secret, who, id } = mint(200_000);
      // Under 2 KB, so it is counted (a longer new text may be reserved at its byte bound, which a 4× bill does not pass).
      const long = [{ role: 'user', content: 'A foreign tokenizer counts this prompt four times over. '.repeat(30) }];
      const first = await post(CHAT, secret, who, { model: 'm', messages: long, max_tokens: 50 });
      expect(first.status).toBe(200);
      const record = sink.records.findLast((r) => r.key_id === id);
      expect(record?.total_tokens).toBeGreaterThan(record?.reserved_tokens ?? Infinity);
      expect(record?.over_reservation).toBe((record?.total_tokens ?? 0) - (record?.reserved_tokens ?? 0));
      expect(keys.get(id)).toMatchObject({ closed: 'over_reservation', overReservation: record?.over_reservation });
      const billed = upstream.billedBy(who);
      const second = await post(CHAT, secret, who, { model: 'm', messages: MESSAGES, max_tokens: 5 });
      expect(second.status).toBe(403);
      expect(JSON.stringify(second.json)).toContain('over_reservation');
      expect(upstream.billedBy(who)).toBe(billed);
    } finally {
      upstream.set({});
    }
  });
});

describe('100 concurrent mixed calls on one key', () => {
  test('hold the budget: Σ billed ≤ B', async () => {
    // Answers shorter than their caps, as real ones mostly are: many calls fit, and those that
    // found the budget held by reservations wait for them to settle.
    upstream.set({ answerTokens: 150 });
    const budget = 20_000;
    const { secret, who } = mint(budget);
    const client = new OpenAI({ apiKey: secret, baseURL: `${gateway.url}/v1`, maxRetries: 0, defaultHeaders: { 'x-claude-code-session-id': who } });
    const bodies: Array<{ path: string; body: Body }> = [
      { path: CHAT, body: { model: 'm', messages: MESSAGES, max_tokens: 10, max_completion_tokens: 100_000 } },
      { path: CHAT, body: { model: 'm', messages: MESSAGES, max_tokens: 300, n: 3 } },
      { path: CHAT, body: { model: 'm', messages: MESSAGES, n: '8' } },
      { path: CHAT, body: { model: 'm', messages: MESSAGES, stream: true } },
      { path: MESSAGES_PATH, body: { model: 'm', messages: MESSAGES, max_tokens: 128_000, stream: true } },
      { path: MESSAGES_PATH, body: { model: 'm', messages: MESSAGES, max_tokens: 64, max_completion_tokens: 100_000 } },
      { path: RESPONSES, body: { model: 'm', input: MESSAGES, max_tokens: 100_000 } },
      { path: RESPONSES, body: { model: 'm', input: MESSAGES, stream: true } },
    ];
    const calls = Array.from({ length: 100 }, (_, i) => {
      if (i % 10 === 9) return client.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'hi' }], max_completion_tokens: 700 }).then(() => 200, (error: { status?: number }) => error.status ?? 0);
      const { path, body } = bodies[i % bodies.length] as { path: string; body: Body };
      return post(path, secret, who, body).then((reply) => reply.status);
    });
    const statuses = await Promise.all(calls).finally(() => upstream.set({}));
    expect(statuses.filter((status) => status === 200).length).toBeGreaterThanOrEqual(20);
    expect(statuses.every((status) => [200, 400, 429].includes(status)), statuses.join(',')).toBe(true);
    expect(upstream.billedBy(who)).toBeLessThanOrEqual(budget);
  });
});

describe('through a command-executor run', () => {
  test('an agent sending max_tokens 10 beside max_completion_tokens 100000 stays within each path\'s budget', async () => {
    const budget = 3_000;
    // The agent is the attacker: it speaks raw HTTP to the gateway the run gives it.
    const agent = `const r = await fetch(process.env.OPENAI_BASE_URL + '/chat/completions', { method: 'POST', headers: { authorization: 'Bearer ' + process.env.OPENAI_API_KEY, 'content-type': 'application/json' }, body: JSON.stringify({ model: 'm', messages: [{ role: 'user', content: process.argv[1] }], max_tokens: 10, max_completion_tokens: 100000 }) }); await r.text(); console.log(r.status === 200 ? '3' : 'refused ' + r.status);`;
    const experiment = writeExperiment({
      provider: `{ protocol: openai-chat, base_url: "${upstream.url}/v1", api_key_env: MOCK_UPSTREAM_KEY }`,
      budget: `{ total_tokens_per_case: ${budget}, per_case_max_tokens: 256, best_of_n: [1] }`,
      extra: `executor: { type: command, argv: ${JSON.stringify([process.execPath, '--input-type=module', '-e', agent, '{{input}}'])}, timeout_ms: 60000 }`,
      cases: 2,
    });
    const run = await runExperiment({ configPath: experiment.configPath, outDir: experiment.runsDir, env: { MOCK_UPSTREAM_KEY: 'sk-mock-0123456789' } });
    const paths = runPaths(run.runDir);
    const calls = readJsonl<CallRecord>(paths.calls).records;
    const results = readJsonl<ResultRecord>(paths.results).records;
    expect(calls.length).toBeGreaterThan(0);
    expect(calls.every((call) => call.status === 200)).toBe(true);
    for (const result of results) {
      expect(result.over_budget, `${result.case_id} ${result.arm}`).toBe(false);
      expect(result.total_tokens).toBeLessThanOrEqual(budget);
    }
  });
});
