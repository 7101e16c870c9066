/**
 * Every fault a real upstream produces, for each of the three real protocols, against a
 * loopback stub: the right ProviderError kind, status, retryability and Retry-After, and the
 * API key in none of them.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { FAKE_KEY, anthropicErrorBody, openAIErrorBody } from './test-support/canned-bodies.js';
import { expectProviderError } from './test-support/expect-provider-error.js';
import { PROTOCOL_FIXTURES, basicRequest } from './test-support/protocol-fixtures.js';
import { startStubServer, type StubServer } from './test-support/stub-server.js';

describe.each(PROTOCOL_FIXTURES)('$protocol faults', (fixture) => {
  let stub: StubServer;
  beforeAll(async () => {
    stub = await startStubServer(() => ({ kind: 'json', body: fixture.goodBody() }));
  });
  afterAll(async () => {
    await stub.close();
  });

  const errorBody = (message: string): Record<string, unknown> =>
    fixture.protocol === 'anthropic-messages' ? anthropicErrorBody('api_error', message) : openAIErrorBody(message);

  test('429 with Retry-After: 2 is a retryable http error carrying 2000 ms', async () => {
    stub.setHandler(() => ({ kind: 'json', status: 429, headers: { 'retry-after': '2' }, body: errorBody('slow down') }));
    const error = await expectProviderError(fixture.create(stub.url).generate(basicRequest()));
    expect(error).toMatchObject({ kind: 'http', status: 429, retryAfterMs: 2000, isRetryable: true });
    expect(error.message).toContain('slow down');
  });

  test('retry-after-ms wins over Retry-After', async () => {
    stub.setHandler(() => ({
      kind: 'json',
      status: 429,
      headers: { 'retry-after': '9', 'retry-after-ms': '250' },
      body: errorBody('slow down'),
    }));
    const error = await expectProviderError(fixture.create(stub.url).generate(basicRequest()));
    expect(error.retryAfterMs).toBe(250);
  });

  // A 5xx may follow work the upstream billed (its outcome is unknown); a 4xx refused the request.
  test.each([
    [500, true, true],
    [503, true, true],
    [408, true, false],
    [409, true, false],
    [400, false, false],
    [401, false, false],
    [404, false, false],
    [422, false, false],
  ])('HTTP %i → retryable %s, may have billed %s', async (status, retryable, mayHaveBilled) => {
    stub.setHandler(() => ({ kind: 'json', status, body: errorBody(`status ${status}`) }));
    const error = await expectProviderError(fixture.create(stub.url).generate(basicRequest()));
    expect(error).toMatchObject({ kind: 'http', status, isRetryable: retryable, retryAfterMs: undefined, mayHaveBilled });
  });

  test('an error page that is not JSON still maps to http with its status', async () => {
    stub.setHandler(() => ({ kind: 'text', status: 502, contentType: 'text/html', text: '<html>Bad gateway</html>' }));
    const error = await expectProviderError(fixture.create(stub.url).generate(basicRequest()));
    expect(error).toMatchObject({ kind: 'http', status: 502, isRetryable: true, mayHaveBilled: true });
  });

  test('a connection reset before any byte is a retryable connection error that may have billed (the request was written)', async () => {
    stub.setHandler(() => ({ kind: 'reset' }));
    const error = await expectProviderError(fixture.create(stub.url).generate(basicRequest()));
    expect(error).toMatchObject({ kind: 'connection', isRetryable: true, status: undefined, mayHaveBilled: true });
  });

  test('a body cut short after the headers is a connection error', async () => {
    stub.setHandler(() => ({ kind: 'cut-body' }));
    const error = await expectProviderError(fixture.create(stub.url).generate(basicRequest()));
    expect(error).toMatchObject({ kind: 'connection', isRetryable: true, mayHaveBilled: true });
  });

  test('a refused connection is a connection error that provably never left (nothing billed)', async () => {
    const closed = await startStubServer(() => ({ kind: 'reset' }));
    const url = closed.url;
    await closed.close();
    const error = await expectProviderError(fixture.create(url).generate(basicRequest()));
    expect(error).toMatchObject({ kind: 'connection', isRetryable: true, mayHaveBilled: false });
  });

  test('a host that does not resolve never left either', async () => {
    const error = await expectProviderError(fixture.create('http://isobudget-no-such-host.invalid').generate(basicRequest()));
    expect(error).toMatchObject({ kind: 'connection', mayHaveBilled: false });
  });

  test('a 200 with invalid JSON is a retryable invalid_response', async () => {
    stub.setHandler(() => ({ kind: 'text', text: '{"choices": [{"message": ' }));
    const error = await expectProviderError(fixture.create(stub.url).generate(basicRequest()));
    expect(error).toMatchObject({ kind: 'invalid_response', isRetryable: true, status: 200, mayHaveBilled: true });
  });

  test('a 200 with an HTML body is an invalid_response', async () => {
    stub.setHandler(() => ({ kind: 'text', contentType: 'text/html', text: '<html>captive portal</html>' }));
    const error = await expectProviderError(fixture.create(stub.url).generate(basicRequest()));
    expect(error).toMatchObject({ kind: 'invalid_response', isRetryable: true });
  });

  test('a 200 JSON body without choices/output/content is an invalid_response', async () => {
    stub.setHandler(() => ({ kind: 'json', body: { id: 'x', object: 'something-else' } }));
    const error = await expectProviderError(fixture.create(stub.url).generate(basicRequest()));
    expect(error).toMatchObject({ kind: 'invalid_response', isRetryable: true, status: 200 });
  });

  test('a missing usage object leaves every usage field undefined, never 0', async () => {
    const body = fixture.goodBody();
    delete body['usage'];
    stub.setHandler(() => ({ kind: 'json', body }));
    const result = await fixture.create(stub.url).generate(basicRequest());
    expect(result.usage).toEqual({
      inputTokens: undefined,
      outputTokens: undefined,
      totalTokens: undefined,
      cachedTokens: undefined,
      reasoningTokens: undefined,
    });
    expect(result.choices).toHaveLength(1);
  });

  test('a response slower than the deadline is a retryable timeout', async () => {
    stub.setHandler(() => ({ kind: 'json', body: fixture.goodBody(), delayMs: 2_000 }));
    const started = Date.now();
    const error = await expectProviderError(fixture.create(stub.url, { timeoutMs: 150 }).generate(basicRequest()));
    expect(error).toMatchObject({ kind: 'timeout', isRetryable: true, mayHaveBilled: true });
    expect(Date.now() - started).toBeLessThan(1_500);
  });

  test('a body that stalls after the headers still times out (the deadline covers the body)', async () => {
    stub.setHandler(() => ({ kind: 'stall-body' }));
    const started = Date.now();
    const error = await expectProviderError(fixture.create(stub.url, { timeoutMs: 200 }).generate(basicRequest()));
    expect(error).toMatchObject({ kind: 'timeout', isRetryable: true });
    expect(Date.now() - started).toBeLessThan(1_500);
  });

  test('aborting request.signal is a non-retryable aborted error', async () => {
    stub.setHandler(() => ({ kind: 'json', body: fixture.goodBody(), delayMs: 2_000 }));
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const error = await expectProviderError(
      fixture.create(stub.url).generate(basicRequest({ signal: controller.signal })),
    );
    expect(error).toMatchObject({ kind: 'aborted', isRetryable: false });
  });

  test('an already-aborted signal fails without waiting', async () => {
    const error = await expectProviderError(
      fixture.create(stub.url).generate(basicRequest({ signal: AbortSignal.abort() })),
    );
    expect(error).toMatchObject({ kind: 'aborted', isRetryable: false });
  });

  test('a key echoed by the upstream is scrubbed from the error', async () => {
    stub.setHandler(() => ({
      kind: 'json',
      status: 401,
      body: errorBody(`Incorrect API key provided: ${FAKE_KEY}. Header was Bearer ${FAKE_KEY}`),
    }));
    const error = await expectProviderError(fixture.create(stub.url).generate(basicRequest()));
    expect(error).toMatchObject({ kind: 'http', status: 401, isRetryable: false });
    expect(error.message).toContain('Incorrect API key provided: [redacted]');
  });

  test('a key echoed inside an unparseable 200 body is scrubbed too', async () => {
    stub.setHandler(() => ({ kind: 'text', text: `{"echo": "${FAKE_KEY}", ` }));
    const error = await expectProviderError(fixture.create(stub.url).generate(basicRequest()));
    expect(error.kind).toBe('invalid_response');
  });

  test('a key echoed in a non-JSON error page is scrubbed', async () => {
    stub.setHandler(() => ({ kind: 'text', status: 403, contentType: 'text/plain', text: `forbidden for key ${FAKE_KEY}` }));
    const error = await expectProviderError(fixture.create(stub.url).generate(basicRequest()));
    expect(error).toMatchObject({ kind: 'http', status: 403 });
  });
});
