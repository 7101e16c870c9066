import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { FAKE_KEY, chatCompletionBody, openAIErrorBody } from '../test-support/canned-bodies.js';
import { expectProviderError } from '../test-support/expect-provider-error.js';
import { basicRequest } from '../test-support/protocol-fixtures.js';
import { startStubServer, type StubServer } from '../test-support/stub-server.js';
import { createOpenAIChatProvider } from './openai-chat-provider.js';
import { isNativeNRejected } from './native-n-rejected.js';

describe('openai-chat provider', () => {
  let stub: StubServer;
  beforeAll(async () => {
    stub = await startStubServer(() => ({ kind: 'json', body: chatCompletionBody() }));
  });
  afterAll(async () => {
    await stub.close();
  });
  const provider = () => createOpenAIChatProvider({ baseUrl: `${stub.url}/v1`, apiKey: FAKE_KEY, timeoutMs: 5_000, headers: { 'x-run-id': 'run-1' } });
  const lastRequest = () => stub.requests.at(-1)!;

  test('describes itself', () => {
    expect(provider()).toMatchObject({ protocol: 'openai-chat', baseUrl: `${stub.url}/v1`, supportsNativeN: true });
  });

  test('maps text, usage, finish reason and model of a successful call', async () => {
    stub.setHandler(() => ({ kind: 'json', body: chatCompletionBody({ texts: ['Hello.'] }) }));
    const result = await provider().generate(basicRequest({ seed: 7 }));
    expect(result).toEqual({
      choices: [{ text: 'Hello.', finishReason: { unified: 'stop', raw: 'stop' } }],
      usage: { inputTokens: 12, outputTokens: 3, totalTokens: 15, cachedTokens: 4, reasoningTokens: 1 },
      status: 200,
      responseModel: 'stub-model-2026',
    });
    const request = lastRequest();
    expect(request.path).toBe('/v1/chat/completions');
    expect(request.body).toEqual({
      model: 'stub-model',
      messages: [
        { role: 'system', content: 'Answer briefly.' },
        { role: 'user', content: 'Say hello.' },
      ],
      max_tokens: 64,
      temperature: 0.2,
      seed: 7,
    });
  });

  test('sends the key as a Bearer token, plus the configured headers', async () => {
    stub.setHandler(() => ({ kind: 'json', body: chatCompletionBody() }));
    await provider().generate(basicRequest());
    expect(lastRequest().headers['authorization']).toBe(`Bearer ${FAKE_KEY}`);
    expect(lastRequest().headers['x-run-id']).toBe('run-1');
    // The runner owns retries: the SDK must say this is its only attempt.
    expect(lastRequest().headers['x-stainless-retry-count']).toBe('0');
  });

  test('native n returns n choices in index order and one usage for the call', async () => {
    const body = chatCompletionBody({ texts: ['a', 'b', 'c'], finishReasons: ['stop', 'length', 'stop'] });
    (body['choices'] as unknown[]).reverse();
    stub.setHandler(() => ({ kind: 'json', body }));
    const result = await provider().generate(basicRequest({ n: 3 }));
    expect(result.choices.map((choice) => choice.text)).toEqual(['a', 'b', 'c']);
    expect(result.choices.map((choice) => choice.finishReason.unified)).toEqual(['stop', 'length', 'stop']);
    expect(result.usage.totalTokens).toBe(15);
    expect(lastRequest().body).toMatchObject({ n: 3 });
  });

  test('truncation at max_tokens is finish length', async () => {
    stub.setHandler(() => ({ kind: 'json', body: chatCompletionBody({ texts: ['Hel'], finishReasons: ['length'] }) }));
    const result = await provider().generate(basicRequest({ maxTokens: 1 }));
    expect(result.choices[0]?.finishReason).toEqual({ unified: 'length', raw: 'length' });
  });

  test('content_filter and a null finish reason are errors with the raw word kept', async () => {
    stub.setHandler(() => ({ kind: 'json', body: chatCompletionBody({ texts: ['x', 'y'], finishReasons: ['content_filter', null] }) }));
    const result = await provider().generate(basicRequest({ n: 2 }));
    expect(result.choices.map((choice) => choice.finishReason)).toEqual([
      { unified: 'error', raw: 'content_filter' },
      { unified: 'error', raw: undefined },
    ]);
  });

  test('maps tools out and tool calls back', async () => {
    stub.setHandler(() => ({
      kind: 'json',
      body: chatCompletionBody({
        finishReasons: ['tool_calls'],
        toolCalls: [{ id: 'call_1', name: 'lookup', arguments: '{"q":"date"}' }],
      }),
    }));
    const parameters = { type: 'object', properties: { q: { type: 'string' } }, required: ['q'] };
    const result = await provider().generate(basicRequest({ tools: [{ name: 'lookup', description: 'Look up', parameters }] }));
    expect(result.choices[0]).toEqual({
      text: '',
      finishReason: { unified: 'tool_calls', raw: 'tool_calls' },
      toolCalls: [{ id: 'call_1', name: 'lookup', arguments: '{"q":"date"}' }],
    });
    expect(lastRequest().body).toMatchObject({
      tools: [{ type: 'function', function: { name: 'lookup', description: 'Look up', parameters } }],
    });
  });

  test('usage without details leaves cached and reasoning undefined', async () => {
    stub.setHandler(() => ({ kind: 'json', body: chatCompletionBody({ usage: { prompt_tokens: 5, completion_tokens: 2 } }) }));
    const result = await provider().generate(basicRequest());
    expect(result.usage).toEqual({ inputTokens: 5, outputTokens: 2, totalTokens: 7, cachedTokens: undefined, reasoningTokens: undefined });
  });

  test.each([
    ['param', openAIErrorBody('Unsupported value: does not support 4 with this model.', { param: 'n', code: 'unsupported_value' })],
    ['message', openAIErrorBody("Invalid request: 'n' must be 1 for this model")],
    ['code', { error: { message: 'bad request', code: 'n_not_supported' } }],
  ])('a 400 rejecting n (named in the %s) is unsupported and recognizable', async (_where, body) => {
    stub.setHandler(() => ({ kind: 'json', status: 400, body }));
    const error = await expectProviderError(provider().generate(basicRequest({ n: 4 })));
    expect(error).toMatchObject({ kind: 'unsupported', status: 400, isRetryable: false });
    expect(isNativeNRejected(error)).toBe(true);
  });

  test('a 400 about something else, or at n = 1, is a plain http error', async () => {
    stub.setHandler(() => ({ kind: 'json', status: 400, body: openAIErrorBody('max_tokens is too large', { param: 'max_tokens' }) }));
    const other = await expectProviderError(provider().generate(basicRequest({ n: 4 })));
    expect(other).toMatchObject({ kind: 'http', status: 400, isRetryable: false });
    expect(isNativeNRejected(other)).toBe(false);

    stub.setHandler(() => ({ kind: 'json', status: 400, body: openAIErrorBody("'n' is not supported", { param: 'n' }) }));
    const single = await expectProviderError(provider().generate(basicRequest({ n: 1 })));
    expect(single.kind).toBe('http');
    expect(isNativeNRejected(single)).toBe(false);
  });

  test('a JSON error body echoed as "\\n" escapes does not count as naming n', async () => {
    stub.setHandler(() => ({ kind: 'json', status: 400, body: { error: { detail: 'line one\nline two' } } }));
    const error = await expectProviderError(provider().generate(basicRequest({ n: 2 })));
    expect(isNativeNRejected(error)).toBe(false);
  });

  test('isNativeNRejected is false for anything that is not a ProviderError', () => {
    expect(isNativeNRejected(new Error('native n rejected by upstream'))).toBe(false);
    expect(isNativeNRejected(undefined)).toBe(false);
  });
});
