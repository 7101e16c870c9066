/**
 * The official SDKs as real HTTP clients of the gateway (in front of `sim serve`): what the
 * ledger records equals what the client received, streamed or not; a budget of B tokens
 * holds across 50 concurrent requests on one key; the 429 denial is protocol-shaped and
 * the SDKs stop at once on it.
 */
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startHarness, type Harness } from '../src/gateway/test-support/harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ sim: { seed: 21 } });
});
afterAll(async () => {
  await h.close();
});

const anthropic = (key: string) => new Anthropic({ apiKey: null, authToken: key, baseURL: h.gateway.url, maxRetries: 2, logLevel: 'warn' });
const openai = (key: string) => new OpenAI({ apiKey: key, baseURL: `${h.gateway.url}/v1`, maxRetries: 2, logLevel: 'warn' });
const QUESTION = 'What is 17 + 25? Explain thoroughly, step by step.';
const lastRecord = () => h.sink.records.at(-1);
/** Records are written before the client's response ends; a tick covers the SDK's own bookkeeping. */
const settled = () => new Promise((resolve) => setTimeout(resolve, 5));

describe('recorded usage equals what the client received', () => {
  test.each([false, true])('Anthropic messages (stream: %s)', async (stream) => {
    const client = anthropic(h.mint(50_000, { run: 'sdk' }));
    const body = { model: 'sim-small', max_tokens: 2000, messages: [{ role: 'user' as const, content: QUESTION }] };
    const message = stream ? await client.messages.stream(body).finalMessage() : await client.messages.create(body);
    await settled();
    const usage = message.usage;
    const input = usage.input_tokens + (usage.cache_creation_input_tokens ?? 0) + (usage.cache_read_input_tokens ?? 0);
    expect(lastRecord()).toMatchObject({ stream, prompt_tokens: input, completion_tokens: usage.output_tokens, total_tokens: input + usage.output_tokens, usage_missing: false, finish_reason: 'stop' });
    expect(input).toBeGreaterThan(0);
    // The gateway's own time before forwarding is part of the call's time, and of its time to first byte.
    const record = lastRecord();
    expect(record?.gateway_ms).toBeGreaterThan(0);
    expect(record?.gateway_ms).toBeLessThanOrEqual((record?.ttfb_ms ?? 0) + 0.5);
    expect(record?.gateway_ms).toBeLessThanOrEqual((record?.latency_ms ?? 0) + 0.5);
  });

  test.each([
    { stream: false, includeUsage: undefined },
    { stream: true, includeUsage: true },
    // Not asked for by the client: the gateway asks, so the stream still reports usage.
    { stream: true, includeUsage: undefined },
  ])('OpenAI chat (stream: $stream, include_usage: $includeUsage)', async ({ stream, includeUsage }) => {
    const client = openai(h.mint(50_000));
    const messages = [{ role: 'user' as const, content: QUESTION }];
    let usage: OpenAI.CompletionUsage | undefined | null;
    if (stream) {
      const chunks = await client.chat.completions.create({ model: 'sim-small', messages, stream: true, ...(includeUsage ? { stream_options: { include_usage: true } } : {}) });
      for await (const chunk of chunks) usage = chunk.usage ?? usage;
    } else usage = (await client.chat.completions.create({ model: 'sim-small', messages })).usage;
    await settled();
    expect(usage?.total_tokens).toBeGreaterThan(0);
    expect(lastRecord()).toMatchObject({ stream, prompt_tokens: usage?.prompt_tokens, completion_tokens: usage?.completion_tokens, total_tokens: usage?.total_tokens, usage_missing: false });
  });

  test.each([false, true])('OpenAI Responses (stream: %s)', async (stream) => {
    const client = openai(h.mint(50_000));
    const body = { model: 'sim-small', input: [{ role: 'user' as const, content: QUESTION }] };
    const response = stream ? await client.responses.stream(body).finalResponse() : await client.responses.create(body);
    await settled();
    expect(response.usage?.total_tokens).toBeGreaterThan(0);
    expect(lastRecord()).toMatchObject({ stream, prompt_tokens: response.usage?.input_tokens, completion_tokens: response.usage?.output_tokens, total_tokens: response.usage?.total_tokens, usage_missing: false });
  });

  test('a call the upstream answers without usage is recorded as unknown, never 0', async () => {
    const fresh = await startHarness({ sim: { seed: 2, faults: { rates: { missingUsage: 1 } } } });
    try {
      const client = new OpenAI({ apiKey: fresh.mint(), baseURL: `${fresh.gateway.url}/v1`, maxRetries: 0 });
      const completion = await client.chat.completions.create({ model: 'sim-small', messages: [{ role: 'user', content: 'hi' }] });
      expect(completion.usage).toBeUndefined();
      await settled();
      const record = fresh.sink.records.at(-1);
      expect(record?.usage_missing).toBe(true);
      expect(record?.total_tokens).toBeUndefined();
      expect(record?.prompt_tokens).toBeUndefined();
    } finally {
      await fresh.close();
    }
  });
});

describe('budget enforcement', () => {
  const B = 4000;
  test(`50 concurrent requests on one key (three protocols, streamed and not) never bill more than B = ${B}`, async () => {
    const key = h.mint(B, { run: 'concurrent' });
    const a = anthropic(key);
    const o = openai(key);
    const before = h.sink.records.length;
    const simBefore = h.sim.stats.requests;
    // The simulator takes style from the system prompt: these answers are long.
    const system = 'Explain thoroughly, step by step.';
    const messages = [{ role: 'user' as const, content: QUESTION }];
    const calls = Array.from({ length: 50 }, (_, i) => {
      const stream = i % 2 === 0;
      switch (i % 3) {
        case 0: return stream ? a.messages.stream({ model: 'sim-large', max_tokens: 128000, system, messages }).finalMessage() : a.messages.create({ model: 'sim-large', max_tokens: 16000, system, messages });
        case 1: return o.chat.completions.create({ model: 'sim-large', max_tokens: 4096, stream: false, messages: [{ role: 'system', content: system }, ...messages] });
        default: return stream ? o.responses.stream({ model: 'sim-large', instructions: system, input: messages }).finalResponse() : o.responses.create({ model: 'sim-large', instructions: system, input: messages });
      }
    });
    const outcomes = await Promise.allSettled(calls);
    await settled();
    const records = h.sink.records.slice(before);
    const billed = records.reduce((sum, r) => sum + (r.total_tokens ?? 0), 0);
    expect(records.every((r) => !r.usage_missing)).toBe(true);
    expect(billed).toBeLessThanOrEqual(B);
    // B binds: the key's tokens were really used, not left on the table.
    expect(billed).toBeGreaterThan(B * 0.75);
    expect(h.keys.list().find((k) => k.tags['run'] === 'concurrent')?.spent).toBe(billed);
    const denied = outcomes.filter((o) => o.status === 'rejected');
    const served = outcomes.filter((o) => o.status === 'fulfilled');
    expect(served.length).toBeGreaterThan(1);
    expect(denied.length).toBeGreaterThan(0);
    // 429 budget_exhausted; on the Responses API a 400 (what Codex shows and does not retry).
    for (const outcome of denied) expect((outcome as PromiseRejectedResult).reason).toMatchObject({ status: expect.toBeOneOf([429, 400]) });
    // One record per request: the SDKs did not retry the denials (x-should-retry: false).
    expect(records).toHaveLength(50);
    expect(records.filter((r) => r.finish_reason === 'budget_exhausted' && r.status !== 200)).toHaveLength(denied.length);
    expect(h.sim.stats.requests - simBefore).toBe(served.length);
    // What was left was handed out as output cap, never more.
    for (const record of records.filter((r) => r.status === 200)) expect(record.max_tokens).toBeLessThan(B);
  });

  test('the 429 denial is protocol-shaped, says the budget is spent, and is not retried', async () => {
    const key = h.mint(60);
    const simBefore = h.sim.stats.requests;
    const denial = await anthropic(key).messages.create({ model: 'sim-small', max_tokens: 100, messages: [{ role: 'user', content: QUESTION.repeat(20) }] }).catch((e: unknown) => e);
    expect(denial).toBeInstanceOf(Anthropic.RateLimitError);
    const error = denial as InstanceType<typeof Anthropic.RateLimitError>;
    expect(error.status).toBe(429);
    expect(error.error).toEqual({ type: 'error', error: { type: 'rate_limit_error', message: expect.stringContaining('token budget of this key is spent') } });
    expect(error.headers.get('x-should-retry')).toBe('false');
    expect(error.headers.get('retry-after')).toBeNull();
    const chat = await openai(key).chat.completions.create({ model: 'sim-small', messages: [{ role: 'user', content: QUESTION.repeat(20) }] }).catch((e: unknown) => e);
    expect(chat).toBeInstanceOf(OpenAI.RateLimitError);
    expect((chat as InstanceType<typeof OpenAI.RateLimitError>).error).toEqual({ message: expect.stringContaining('budget'), type: 'insufficient_quota', param: null, code: 'budget_exhausted' });
    // The Responses API (Codex's) gets a 400: Codex retries a 403 and rewrites a 429's message, a 400 it prints as sent.
    const responses = await openai(key).responses.create({ model: 'sim-small', input: QUESTION.repeat(20) }).catch((e: unknown) => e);
    expect(responses).toBeInstanceOf(OpenAI.BadRequestError);
    expect((responses as InstanceType<typeof OpenAI.BadRequestError>).error).toEqual({ message: expect.stringContaining('token budget of this key is spent'), type: 'insufficient_quota', param: null, code: 'budget_exhausted' });
    expect(h.sim.stats.requests).toBe(simBefore);
    expect(h.sink.records.slice(-3).map((r) => [r.status, r.finish_reason, r.attempt])).toEqual([[429, 'budget_exhausted', 1], [429, 'budget_exhausted', 1], [400, 'budget_exhausted', 1]]);
    // Never forwarded: no gateway time to report.
    expect(h.sink.records.slice(-3).map((r) => r.gateway_ms)).toEqual([undefined, undefined, undefined]);
  });

  test('unknown and revoked keys get a protocol-shaped 401', async () => {
    const unknown = await anthropic('ibk-000000000000-nope').messages.create({ model: 'sim-small', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] }).catch((e: unknown) => e);
    expect(unknown).toBeInstanceOf(Anthropic.AuthenticationError);
    expect((unknown as InstanceType<typeof Anthropic.AuthenticationError>).error).toMatchObject({ type: 'error', error: { type: 'authentication_error' } });
    const { key, secret } = h.keys.create({ budget: 1000, tags: {} });
    h.keys.revoke(key.id);
    const revoked = await openai(secret).chat.completions.create({ model: 'sim-small', messages: [{ role: 'user', content: 'hi' }] }).catch((e: unknown) => e);
    expect(revoked).toBeInstanceOf(OpenAI.AuthenticationError);
    expect((revoked as InstanceType<typeof OpenAI.AuthenticationError>).message).toContain('revoked');
  });

  test('metadata routes pass through without spending: models and count_tokens', async () => {
    const key = h.mint(10);
    const models = await openai(key).models.list();
    expect(models.data.length).toBeGreaterThan(0);
    const count = await anthropic(key).messages.countTokens({ model: 'sim-small', messages: [{ role: 'user', content: QUESTION }] });
    expect(count.input_tokens).toBeGreaterThan(0);
    expect(h.keys.list().find((k) => k.budget === 10)?.spent).toBe(0);
  });
});

describe('tags', () => {
  test('a call is tagged by its key; x-isobudget-tags fills what the key leaves open, and never goes upstream', async () => {
    const key = h.mint(10_000, { run: 'from-key' });
    const client = new Anthropic({ apiKey: null, authToken: key, baseURL: h.gateway.url, maxRetries: 0, defaultHeaders: { 'x-isobudget-tags': 'run=from-header,case=c9,arm=candidate_single', 'x-claude-code-session-id': 'sess-1' } });
    await client.messages.create({ model: 'sim-small', max_tokens: 50, messages: [{ role: 'user', content: 'What is 1 + 1?' }] });
    await settled();
    expect(lastRecord()).toMatchObject({ run_id: 'from-key', case_id: 'c9', arm: 'candidate_single', session_id: 'sess-1', tags: { run: 'from-key', case: 'c9', arm: 'candidate_single' } });
    expect(JSON.stringify(h.sim.lastHeaders().at(-1))).not.toContain('from-header');
  });
});
