/**
 * The three real providers against the simulator server over real HTTP on 127.0.0.1: the
 * happy path, native n, truncation, every injected fault, and the key on the wire.
 */
import { afterAll, afterEach, describe, expect, test } from 'vitest';
import { startSimServer, type SimServer, type SimServerOptions } from './sim/server.js';
import { FAKE_KEY } from './test-support/canned-bodies.js';
import { expectProviderError } from './test-support/expect-provider-error.js';
import { PROTOCOL_FIXTURES, basicRequest } from './test-support/protocol-fixtures.js';
import { isNativeNRejected } from './openai-chat/index.js';

const MODEL = 'sim-small';
const servers: SimServer[] = [];

async function sim(options: Omit<SimServerOptions, 'port' | 'latencyScale'> = {}): Promise<SimServer> {
  const server = await startSimServer({ port: 0, seed: 11, latencyScale: 0, ...options });
  servers.push(server);
  return server;
}

afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});
afterAll(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

const request = (overrides: Parameters<typeof basicRequest>[0] = {}) =>
  basicRequest({ model: MODEL, maxTokens: 256, messages: [{ role: 'user', content: 'What is 17 + 25?' }], ...overrides });

describe.each(PROTOCOL_FIXTURES)('$protocol against the simulator', (fixture) => {
  test('a successful call maps text, usage and finish reason', async () => {
    const server = await sim();
    const result = await fixture.create(server.url).generate(request());
    expect(result.status).toBe(200);
    expect(result.choices).toHaveLength(1);
    const [choice] = result.choices;
    expect(choice?.text.length).toBeGreaterThan(0);
    expect(['stop', 'length']).toContain(choice?.finishReason.unified);
    expect(choice?.finishReason.raw).toBeDefined();
    const { inputTokens, outputTokens, totalTokens } = result.usage;
    expect(inputTokens).toBeGreaterThan(0);
    expect(outputTokens).toBeGreaterThan(0);
    expect(totalTokens).toBe(inputTokens! + outputTokens!);
  });

  test('a tiny max_tokens truncates: finish length, output within the cap', async () => {
    const server = await sim();
    const result = await fixture.create(server.url).generate(request({ maxTokens: 2 }));
    expect(result.choices[0]?.finishReason.unified).toBe('length');
    expect(result.usage.outputTokens).toBeLessThanOrEqual(2);
  });

  test('the key goes out as Bearer (OpenAI) or x-api-key (Anthropic), and a server requiring it accepts it', async () => {
    const server = await sim({ requireApiKey: FAKE_KEY });
    await fixture.create(server.url).generate(request());
    const headers = server.lastHeaders().at(-1)!;
    if (fixture.protocol === 'anthropic-messages') {
      expect(headers['x-api-key']).toBe(FAKE_KEY);
      expect(headers['authorization']).toBeUndefined();
    } else {
      expect(headers['authorization']).toBe(`Bearer ${FAKE_KEY}`);
    }
  });

  test('a wrong key is a non-retryable 401 whose error does not carry the key', async () => {
    const server = await sim({ requireApiKey: 'sk-the-right-one' });
    const error = await expectProviderError(fixture.create(server.url).generate(request()));
    expect(error).toMatchObject({ kind: 'http', status: 401, isRetryable: false });
  });

  test('429 with Retry-After: 2 → http 429, retryAfterMs 2000, retryable', async () => {
    const server = await sim({ faults: { rates: { http429: 1 }, retryAfterSeconds: 2 } });
    const error = await expectProviderError(fixture.create(server.url).generate(request()));
    expect(error).toMatchObject({ kind: 'http', status: 429, retryAfterMs: 2000, isRetryable: true });
  });

  test('500 → retryable http error', async () => {
    const server = await sim({ faults: { rates: { http500: 1 } } });
    const error = await expectProviderError(fixture.create(server.url).generate(request()));
    expect(error).toMatchObject({ kind: 'http', status: 500, isRetryable: true });
  });

  test('400 (a request the server rejects) → not retryable', async () => {
    const server = await sim();
    const error = await expectProviderError(fixture.create(server.url).generate(request({ messages: [] })));
    expect(error).toMatchObject({ kind: 'http', status: 400, isRetryable: false });
  });

  test('a connection reset → connection', async () => {
    const server = await sim({ faults: { rates: { reset: 1 } } });
    const error = await expectProviderError(fixture.create(server.url).generate(request()));
    expect(error).toMatchObject({ kind: 'connection', isRetryable: true });
  });

  test('a 200 with invalid JSON → invalid_response', async () => {
    const server = await sim({ faults: { rates: { invalidJson: 1 } } });
    const error = await expectProviderError(fixture.create(server.url).generate(request()));
    expect(error).toMatchObject({ kind: 'invalid_response', isRetryable: true });
  });

  test('missing usage → every usage field undefined', async () => {
    const server = await sim({ faults: { rates: { missingUsage: 1 } } });
    const result = await fixture.create(server.url).generate(request());
    expect(result.choices[0]?.text.length).toBeGreaterThan(0);
    expect(result.usage).toEqual({
      inputTokens: undefined,
      outputTokens: undefined,
      totalTokens: undefined,
      cachedTokens: undefined,
      reasoningTokens: undefined,
    });
  });

  test('a reply slower than the deadline → timeout', async () => {
    const server = await sim({ faults: { rates: { slow: 1 }, slowMs: 3_000 } });
    const error = await expectProviderError(fixture.create(server.url, { timeoutMs: 200 }).generate(request()));
    expect(error).toMatchObject({ kind: 'timeout', isRetryable: true });
  });
});

describe('openai-chat native n against the simulator', () => {
  const chat = PROTOCOL_FIXTURES.find((fixture) => fixture.protocol === 'openai-chat')!;

  test('n = 4 returns 4 choices and one usage for the whole call', async () => {
    const server = await sim();
    const single = await chat.create(server.url).generate(request());
    const result = await chat.create(server.url).generate(request({ n: 4 }));
    expect(result.choices).toHaveLength(4);
    // One prompt, paid once: the input is that of a single-choice call.
    expect(result.usage.inputTokens).toBe(single.usage.inputTokens);
    expect(result.usage.totalTokens).toBe(result.usage.inputTokens! + result.usage.outputTokens!);
  });

  test('an upstream without native n → unsupported, recognized by isNativeNRejected', async () => {
    const server = await sim({ rejectNativeN: true });
    const error = await expectProviderError(chat.create(server.url).generate(request({ n: 4 })));
    expect(error).toMatchObject({ kind: 'unsupported', status: 400, isRetryable: false });
    expect(isNativeNRejected(error)).toBe(true);
    // The same upstream still serves n = 1.
    const single = await chat.create(server.url).generate(request());
    expect(single.choices).toHaveLength(1);
  });
});
