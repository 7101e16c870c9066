import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { FAKE_KEY, anthropicMessageBody } from '../test-support/canned-bodies.js';
import { expectProviderError } from '../test-support/expect-provider-error.js';
import { basicRequest } from '../test-support/protocol-fixtures.js';
import { startStubServer, type StubServer } from '../test-support/stub-server.js';
import { createAnthropicMessagesProvider } from './anthropic-messages-provider.js';

describe('anthropic-messages provider', () => {
  let stub: StubServer;
  beforeAll(async () => {
    stub = await startStubServer(() => ({ kind: 'json', body: anthropicMessageBody() }));
  });
  afterAll(async () => {
    await stub.close();
  });
  const provider = (headers?: Record<string, string>) =>
    createAnthropicMessagesProvider({ baseUrl: stub.url, apiKey: FAKE_KEY, timeoutMs: 5_000, ...(headers ? { headers } : {}) });
  const lastRequest = () => stub.requests.at(-1)!;

  test('describes itself without native n', () => {
    expect(provider()).toMatchObject({ protocol: 'anthropic-messages', baseUrl: stub.url, supportsNativeN: false });
  });

  test('maps text, usage (cache reads and writes billed as input), finish reason', async () => {
    stub.setHandler(() => ({ kind: 'json', body: anthropicMessageBody() }));
    const result = await provider().generate(basicRequest({ seed: 5 }));
    expect(result).toEqual({
      choices: [{ text: 'Hello there.', finishReason: { unified: 'stop', raw: 'end_turn' } }],
      usage: { inputTokens: 115, outputTokens: 7, totalTokens: 122, cachedTokens: 100, reasoningTokens: undefined },
      status: 200,
      responseModel: 'stub-model-2026',
    });
    expect(lastRequest().path).toBe('/v1/messages');
    // No temperature (deprecated by the API) and no seed (the API has none).
    expect(lastRequest().body).toEqual({
      model: 'stub-model',
      system: 'Answer briefly.',
      messages: [{ role: 'user', content: 'Say hello.' }],
      max_tokens: 64,
    });
  });

  test('sends the key as x-api-key and no Authorization header', async () => {
    stub.setHandler(() => ({ kind: 'json', body: anthropicMessageBody() }));
    await provider({ 'x-run-id': 'run-2', authorization: 'Bearer should-be-dropped' }).generate(basicRequest());
    expect(lastRequest().headers['x-api-key']).toBe(FAKE_KEY);
    expect(lastRequest().headers['authorization']).toBeUndefined();
    expect(lastRequest().headers['x-run-id']).toBe('run-2');
    expect(lastRequest().headers['anthropic-version']).toBeDefined();
  });

  test.each([
    ['stop_sequence', 'stop'],
    ['max_tokens', 'length'],
    ['tool_use', 'tool_calls'],
    ['refusal', 'error'],
    ['pause_turn', 'error'],
    ['something_new', 'error'],
  ])('stop_reason %s → %s', async (raw, unified) => {
    stub.setHandler(() => ({ kind: 'json', body: anthropicMessageBody({ stopReason: raw }) }));
    const result = await provider().generate(basicRequest());
    expect(result.choices[0]?.finishReason).toEqual({ unified, raw });
  });

  test('a null stop_reason is an error without raw', async () => {
    stub.setHandler(() => ({ kind: 'json', body: anthropicMessageBody({ stopReason: null }) }));
    const result = await provider().generate(basicRequest());
    expect(result.choices[0]?.finishReason).toEqual({ unified: 'error', raw: undefined });
  });

  test('null cache fields count as 0 next to input_tokens; cachedTokens stays unknown', async () => {
    stub.setHandler(() => ({
      kind: 'json',
      body: anthropicMessageBody({
        usage: { input_tokens: 10, cache_creation_input_tokens: null, cache_read_input_tokens: null, output_tokens: 4 },
      }),
    }));
    const result = await provider().generate(basicRequest());
    expect(result.usage).toEqual({ inputTokens: 10, outputTokens: 4, totalTokens: 14, cachedTokens: undefined, reasoningTokens: undefined });
  });

  test('thinking tokens are reported as reasoning tokens', async () => {
    stub.setHandler(() => ({
      kind: 'json',
      body: anthropicMessageBody({ usage: { input_tokens: 10, output_tokens: 40, output_tokens_details: { thinking_tokens: 30 } } }),
    }));
    const result = await provider().generate(basicRequest());
    expect(result.usage.reasoningTokens).toBe(30);
  });

  test('maps tools to input_schema and tool_use blocks back to tool calls', async () => {
    stub.setHandler(() => ({
      kind: 'json',
      body: anthropicMessageBody({ stopReason: 'tool_use', toolUse: { id: 'toolu_1', name: 'lookup', input: { q: 'x' } } }),
    }));
    const parameters = { type: 'object', properties: { q: { type: 'string' } } };
    const result = await provider().generate(basicRequest({ tools: [{ name: 'lookup', description: 'Look up', parameters }] }));
    expect(result.choices[0]?.toolCalls).toEqual([{ id: 'toolu_1', name: 'lookup', arguments: '{"q":"x"}' }]);
    expect(result.choices[0]?.finishReason.unified).toBe('tool_calls');
    expect(lastRequest().body).toMatchObject({ tools: [{ name: 'lookup', description: 'Look up', input_schema: parameters }] });
  });

  test('asking for n > 1 is refused before any HTTP call', async () => {
    const before = stub.requests.length;
    const error = await expectProviderError(provider().generate(basicRequest({ n: 3 })));
    expect(error).toMatchObject({ kind: 'unsupported', isRetryable: false });
    expect(stub.requests.length).toBe(before);
  });
});
