import { describe, expect, test } from 'vitest';
import { ProviderError } from '../core/provider-error.js';
import { toProviderError } from './http-errors.js';
import { isLoopbackUrl } from './loopback.js';
import { scrubSecret } from './scrub-secret.js';

describe('isLoopbackUrl', () => {
  test.each([
    ['http://127.0.0.1:8080/v1', true],
    ['http://127.9.9.9', true],
    ['http://localhost:3000', true],
    ['http://api.localhost', true],
    ['http://[::1]:4000/v1', true],
    ['https://api.openai.com/v1', false],
    ['http://127.0.0.1.evil.example', false],
    ['http://10.0.0.1', false],
    ['not a url', false],
  ])('%s → %s', (url, expected) => {
    expect(isLoopbackUrl(url)).toBe(expected);
  });
});

describe('scrubSecret', () => {
  test('replaces every occurrence', () => {
    expect(scrubSecret('a KEY b KEY', 'KEY')).toBe('a [redacted] b [redacted]');
  });
  test('leaves text alone without a secret', () => {
    expect(scrubSecret('text', undefined)).toBe('text');
    expect(scrubSecret('text', '')).toBe('text');
  });
});

describe('toProviderError', () => {
  const outcome = { secret: 'sk-SECRET', timedOut: false, aborted: false, timeoutMs: 1000 };

  test('a ProviderError passes through, rebuilt only when it carries the key', () => {
    const clean = new ProviderError('http', 'nope', { status: 429, retryAfterMs: 5 });
    expect(toProviderError(clean, outcome)).toBe(clean);
    const dirty = new ProviderError('http', 'key sk-SECRET', { status: 429, retryAfterMs: 5 });
    expect(toProviderError(dirty, outcome)).toMatchObject({ message: 'key [redacted]', status: 429, retryAfterMs: 5, isRetryable: true });
  });

  test('a SyntaxError is an invalid_response', () => {
    expect(toProviderError(new SyntaxError('Unexpected token'), outcome)).toMatchObject({ kind: 'invalid_response', isRetryable: true });
  });

  test('a socket error deep in the cause chain is a connection error', () => {
    const socket = Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' });
    const error = new TypeError('fetch failed', { cause: socket });
    expect(toProviderError(error, outcome)).toMatchObject({ kind: 'connection', message: expect.stringContaining('ECONNRESET') });
  });

  test('the flags decide between timeout and aborted', () => {
    const abort = new DOMException('This operation was aborted', 'AbortError');
    expect(toProviderError(abort, { ...outcome, timedOut: true })).toMatchObject({ kind: 'timeout', isRetryable: true });
    expect(toProviderError(abort, { ...outcome, aborted: true })).toMatchObject({ kind: 'aborted', isRetryable: false });
  });

  test('long upstream text is truncated', () => {
    const error = toProviderError(new SyntaxError('x'.repeat(5000)), outcome);
    expect(error.message.length).toBeLessThan(700);
  });
});
