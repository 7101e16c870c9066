import { describe, expect, test } from 'vitest';
import { IsobudgetError } from '../core/errors.js';
import { checkBind, isLoopbackHost } from './bind-policy.js';
import { accessTokenMatches, attemptNumber, presentedKeys, sessionId } from './client-credentials.js';
import { budgetSpentReply, keyClosedReply, unauthorizedReply } from './error-reply.js';
import { clientResponseHeaders, upstreamRequestHeaders } from './forward-headers.js';
import { familyOf, findRoute } from './routes.js';
import { makeScrubber } from './scrubber.js';
import { displayUrl, upstreamUrl } from './upstream-url.js';

describe('upstreamUrl', () => {
  test.each([
    { base: 'https://api.anthropic.com', path: '/v1/messages?beta=true', url: 'https://api.anthropic.com/v1/messages?beta=true' },
    { base: 'https://api.openai.com/v1', path: '/v1/responses', url: 'https://api.openai.com/v1/responses' },
    { base: 'https://api.openai.com/v1/', path: '/v1/chat/completions', url: 'https://api.openai.com/v1/chat/completions' },
    { base: 'https://taotoken.net/api', path: '/v1/messages', url: 'https://taotoken.net/api/v1/messages' },
    { base: 'http://127.0.0.1:8787', path: '/v1/models', url: 'http://127.0.0.1:8787/v1/models' },
    // Issue 20 item 10: only allow-listed query parameters leave; a virtual key in the query never does.
    { base: 'https://api.anthropic.com', path: '/v1/messages?key=ibk-secret&beta=true', url: 'https://api.anthropic.com/v1/messages?beta=true' },
    { base: 'https://x.openai.azure.com/openai/v1', path: '/v1/chat/completions?api-version=2025-04-01-preview&k%65y=ibk-x&stream=true', url: 'https://x.openai.azure.com/openai/v1/chat/completions?api-version=2025-04-01-preview' },
    { base: 'http://127.0.0.1:8787/v1', path: '/v1/responses?key=ibk-secret', url: 'http://127.0.0.1:8787/v1/responses' },
    { base: 'http://127.0.0.1:8787', path: '/v1/messages?%E0%A4%A=1&beta', url: 'http://127.0.0.1:8787/v1/messages?beta' },
  ])('$base + $path', ({ base, path, url }) => {
    expect(upstreamUrl(base, path).toString()).toBe(url);
  });

  test('displayUrl drops credentials and query', () => {
    expect(displayUrl('https://user:pw@example.com/api?key=sk-secret')).toBe('https://example.com/api');
  });
});

describe('routes', () => {
  test('every endpoint, with its family', () => {
    expect(findRoute('/v1/messages')?.protocol).toBe('anthropic-messages');
    expect(findRoute('/v1/messages/count_tokens')?.protocol).toBeUndefined();
    expect(findRoute('/v1/chat/completions')?.protocol).toBe('openai-chat');
    expect(findRoute('/v1/responses/')?.protocol).toBe('openai-responses');
    expect(findRoute('/v1/models')?.method).toBe('GET');
    expect(findRoute('/api/hello')).toBeUndefined();
    expect(familyOf('/v1/messages', {})).toBe('anthropic');
    expect(familyOf('/v1/models', { 'anthropic-version': '2023-06-01' })).toBe('anthropic');
    expect(familyOf('/v1/models', {})).toBe('openai');
  });
});

describe('headers', () => {
  const incoming = {
    authorization: 'Bearer ibk-client', 'x-api-key': 'ibk-client', cookie: 'a=b', host: 'x', connection: 'keep-alive', 'content-length': '10',
    'anthropic-version': '2023-06-01', 'anthropic-beta': 'claude-code-20250219,interleaved-thinking-2025-05-14', 'x-claude-code-session-id': 's1',
    'x-isobudget-access-token': 't', 'x-isobudget-tags': 'run=1', 'accept-encoding': 'gzip, br', 'user-agent': 'claude-cli/2.1.332',
  };
  test('client credentials and gateway headers never go upstream; protocol headers do', () => {
    const out = upstreamRequestHeaders(incoming, 'anthropic', 'auto', 'sk-upstream-0123456789', 42);
    expect(out).toEqual({
      'anthropic-version': '2023-06-01', 'anthropic-beta': 'claude-code-20250219,interleaved-thinking-2025-05-14', 'x-claude-code-session-id': 's1',
      'user-agent': 'claude-cli/2.1.332', 'accept-encoding': 'identity', 'content-length': '42', 'x-api-key': 'sk-upstream-0123456789',
    });
    expect(upstreamRequestHeaders(incoming, 'openai', 'auto', 'sk-up', undefined)).toMatchObject({ authorization: 'Bearer sk-up' });
    expect(upstreamRequestHeaders(incoming, 'anthropic', 'bearer', 'sk-up', undefined)).toMatchObject({ authorization: 'Bearer sk-up' });
    expect(upstreamRequestHeaders(incoming, 'openai', 'auto', undefined, undefined)).not.toHaveProperty('authorization');
  });

  test('response headers: hop-by-hop dropped, the upstream key scrubbed', () => {
    const scrub = makeScrubber('sk-upstream-0123456789');
    const out = clientResponseHeaders({ connection: 'close', 'transfer-encoding': 'chunked', 'x-echo': 'key sk-upstream-0123456789', 'content-length': '5' }, scrub.text, true);
    expect(out).toEqual({ 'x-echo': 'key [redacted]', 'content-length': '5' });
  });

  test('presented keys: Bearer, then x-api-key, deduplicated', () => {
    expect(presentedKeys({ authorization: 'Bearer a', 'x-api-key': 'b' })).toEqual(['a', 'b']);
    expect(presentedKeys({ authorization: 'Bearer a', 'x-api-key': 'a' })).toEqual(['a']);
    expect(presentedKeys({})).toEqual([]);
    expect(sessionId({ 'session-id': 'codex-1' })).toBe('codex-1');
    expect(attemptNumber({ 'x-stainless-retry-count': '2' })).toBe(3);
    expect(attemptNumber({})).toBe(1);
    expect(accessTokenMatches({ 'x-isobudget-access-token': 'right-token' }, 'right-token')).toBe(true);
    expect(accessTokenMatches({ 'x-isobudget-access-token': 'wrong-token' }, 'right-token')).toBe(false);
    expect(accessTokenMatches({}, 'right-token')).toBe(false);
  });
});

describe('replies', () => {
  test('the budget denial is a 429 both real clients stop on, in each protocol\'s shape', () => {
    const anthropic = budgetSpentReply('anthropic', 'budget 100 tokens');
    expect(anthropic.status).toBe(429);
    expect(anthropic.headers['x-should-retry']).toBe('false');
    expect(anthropic.headers).not.toHaveProperty('retry-after');
    expect(JSON.parse(anthropic.body)).toEqual({ type: 'error', error: { type: 'rate_limit_error', message: expect.stringContaining('budget of this key is spent') } });
    // Codex 0.171.0 (Responses only) rewrites a 429's message and retries a 403: there it is a 400.
    expect(budgetSpentReply('openai', 'x', 'openai-responses').status).toBe(400);
    expect(budgetSpentReply('openai', 'x', 'openai-chat').status).toBe(429);
    expect(keyClosedReply('openai', 'x', 'openai-responses').status).toBe(400);
    expect(keyClosedReply('anthropic', 'x', 'anthropic-messages').status).toBe(403);
    expect(JSON.parse(budgetSpentReply('openai', 'x').body)).toEqual({ error: { message: expect.stringContaining('budget'), type: 'insufficient_quota', param: null, code: 'budget_exhausted' } });
    expect(JSON.parse(unauthorizedReply('anthropic', 'unknown virtual key').body).error.type).toBe('authentication_error');
  });
});

describe('bind policy', () => {
  test('loopback binds freely; anything else needs --allow-remote and a long access token', () => {
    for (const host of ['127.0.0.1', 'localhost', '::1', '127.1.2.3']) expect(isLoopbackHost(host)).toBe(true);
    expect(() => checkBind({ host: '127.0.0.1', allowRemote: false, accessToken: undefined })).not.toThrow();
    expect(() => checkBind({ host: '0.0.0.0', allowRemote: false, accessToken: 'x'.repeat(32) })).toThrow(IsobudgetError);
    expect(() => checkBind({ host: '0.0.0.0', allowRemote: true, accessToken: undefined })).toThrow(/access token/);
    expect(() => checkBind({ host: '0.0.0.0', allowRemote: true, accessToken: 'short' })).toThrow(/access token/);
    expect(() => checkBind({ host: '0.0.0.0', allowRemote: true, accessToken: 'x'.repeat(32) })).not.toThrow();
  });
});

describe('scrubber', () => {
  test('chunks keep their length; text says [redacted]', () => {
    const scrub = makeScrubber('sk-upstream-0123456789');
    const chunk = Buffer.from('a sk-upstream-0123456789 b sk-upstream-0123456789');
    const out = scrub.chunk(chunk);
    expect(out.length).toBe(chunk.length);
    expect(out.toString()).not.toContain('sk-upstream');
    expect(chunk.toString()).toContain('sk-upstream'); // the input is not modified
    expect(scrub.text('x sk-upstream-0123456789')).toBe('x [redacted]');
  });
});
