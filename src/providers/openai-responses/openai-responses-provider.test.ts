import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { FAKE_KEY, responsesBody } from '../test-support/canned-bodies.js';
import { expectProviderError } from '../test-support/expect-provider-error.js';
import { basicRequest } from '../test-support/protocol-fixtures.js';
import { startStubServer, type StubServer } from '../test-support/stub-server.js';
import { createOpenAIResponsesProvider } from './openai-responses-provider.js';

describe('openai-responses provider', () => {
  let stub: StubServer;
  beforeAll(async () => {
    stub = await startStubServer(() => ({ kind: 'json', body: responsesBody() }));
  });
  afterAll(async () => {
    await stub.close();
  });
  const provider = () => createOpenAIResponsesProvider({ baseUrl: `${stub.url}/v1`, apiKey: FAKE_KEY, timeoutMs: 5_000 });
  const lastRequest = () => stub.requests.at(-1)!;

  test('describes itself without native n', () => {
    expect(provider()).toMatchObject({ protocol: 'openai-responses', supportsNativeN: false });
  });

  test('maps text, usage, finish reason of a successful call and sends instructions + input', async () => {
    stub.setHandler(() => ({ kind: 'json', body: responsesBody() }));
    const result = await provider().generate(
      basicRequest({
        messages: [
          { role: 'system', content: 'Rule one.' },
          { role: 'user', content: 'Q1' },
          { role: 'assistant', content: 'A1' },
          { role: 'system', content: 'Rule two.' },
          { role: 'user', content: 'Q2' },
        ],
        seed: 3,
      }),
    );
    expect(result).toEqual({
      choices: [{ text: 'Hello there.', finishReason: { unified: 'stop', raw: 'completed' } }],
      usage: { inputTokens: 20, outputTokens: 5, totalTokens: 25, cachedTokens: 8, reasoningTokens: 2 },
      status: 200,
      responseModel: 'stub-model-2026',
    });
    expect(lastRequest().path).toBe('/v1/responses');
    expect(lastRequest().headers['authorization']).toBe(`Bearer ${FAKE_KEY}`);
    expect(lastRequest().body).toEqual({
      model: 'stub-model',
      instructions: 'Rule one.\n\nRule two.',
      input: [
        { type: 'message', role: 'user', content: 'Q1' },
        { type: 'message', role: 'assistant', content: 'A1' },
        { type: 'message', role: 'user', content: 'Q2' },
      ],
      max_output_tokens: 64,
      temperature: 0.2,
      store: false,
    });
  });

  test('incomplete at max_output_tokens is finish length', async () => {
    stub.setHandler(() => ({ kind: 'json', body: responsesBody({ status: 'incomplete', incompleteReason: 'max_output_tokens' }) }));
    const result = await provider().generate(basicRequest());
    expect(result.choices[0]?.finishReason).toEqual({ unified: 'length', raw: 'max_output_tokens' });
  });

  test.each([
    [{ status: 'incomplete', incompleteReason: 'content_filter' }, 'content_filter'],
    [{ status: 'failed' }, 'failed'],
    [{ status: 'cancelled' }, 'cancelled'],
  ])('%o is an error finish with raw %s', async (options, raw) => {
    stub.setHandler(() => ({ kind: 'json', body: responsesBody(options) }));
    const result = await provider().generate(basicRequest());
    expect(result.choices[0]?.finishReason).toEqual({ unified: 'error', raw });
  });

  test('maps tools out and function_call items back as tool_calls', async () => {
    stub.setHandler(() => ({
      kind: 'json',
      body: responsesBody({ functionCall: { call_id: 'call_9', name: 'lookup', arguments: '{"q":1}' } }),
    }));
    const parameters = { type: 'object', properties: { q: { type: 'number' } } };
    const result = await provider().generate(basicRequest({ tools: [{ name: 'lookup', description: 'Look up', parameters }] }));
    expect(result.choices[0]?.finishReason).toEqual({ unified: 'tool_calls', raw: 'completed' });
    expect(result.choices[0]?.toolCalls).toEqual([{ id: 'call_9', name: 'lookup', arguments: '{"q":1}' }]);
    expect(lastRequest().body).toMatchObject({
      tools: [{ type: 'function', name: 'lookup', description: 'Look up', parameters, strict: false }],
    });
  });

  test('asking for n > 1 is refused before any HTTP call', async () => {
    const before = stub.requests.length;
    const error = await expectProviderError(provider().generate(basicRequest({ n: 2 })));
    expect(error).toMatchObject({ kind: 'unsupported', isRetryable: false });
    expect(stub.requests.length).toBe(before);
  });
});
