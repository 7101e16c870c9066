import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AnthropicErrorBody, OpenAIErrorBody } from './http/wire-types.js';
import { startSimServer, type SimServer } from './server.js';

const CHAT = { model: 'sim-small', messages: [{ role: 'user', content: 'Say hello.' }] };

let server: SimServer;
beforeAll(async () => {
  server = await startSimServer({ requireApiKey: 'sk-sim-secret', maxBodyBytes: 64 * 1024 });
});
afterAll(async () => {
  await server.close();
});

function post(path: string, body: string, headers: Record<string, string> = { authorization: 'Bearer sk-sim-secret' }): Promise<Response> {
  return fetch(`${server.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });
}

describe('sim server errors', () => {
  it('answers unknown routes with 404 in the protocol shape', async () => {
    const openai = await post('/v1/nope', '{}');
    expect(openai.status).toBe(404);
    expect(((await openai.json()) as OpenAIErrorBody).error.message).toContain('/v1/nope');
    const unprefixed = await post('/chat/completions', JSON.stringify(CHAT));
    expect(unprefixed.status).toBe(404);
    const anthropic = await post('/v1/messages/batches', '{}', { 'x-api-key': 'sk-sim-secret' });
    expect(anthropic.status).toBe(404);
    expect(((await anthropic.json()) as AnthropicErrorBody).error.type).toBe('not_found_error');
  });

  it('answers invalid JSON with 400', async () => {
    const response = await post('/v1/chat/completions', '{"model": "sim-small", ');
    expect(response.status).toBe(400);
    expect(((await response.json()) as OpenAIErrorBody).error.type).toBe('invalid_request_error');
    const anthropic = await post('/v1/messages', 'not json', { 'x-api-key': 'sk-sim-secret' });
    expect(anthropic.status).toBe(400);
    expect(((await anthropic.json()) as AnthropicErrorBody).type).toBe('error');
  });

  it('answers a body over the limit with 413', async () => {
    const big = JSON.stringify({ ...CHAT, messages: [{ role: 'user', content: 'x'.repeat(200 * 1024) }] });
    const response = await post('/v1/chat/completions', big);
    expect(response.status).toBe(413);
    const anthropic = await post('/v1/messages', big, { 'x-api-key': 'sk-sim-secret' });
    expect(anthropic.status).toBe(413);
    expect(((await anthropic.json()) as AnthropicErrorBody).error.type).toBe('request_too_large');
  });

  it('answers 413 for the default 8 MB limit too', async () => {
    const open = await startSimServer();
    try {
      const response = await fetch(`${open.url}/v1/chat/completions`, { method: 'POST', body: JSON.stringify({ ...CHAT, pad: 'x'.repeat(9 * 1024 * 1024) }) });
      expect(response.status).toBe(413);
    } finally {
      await open.close();
    }
  });

  it('requires the API key as a bearer token or x-api-key when configured', async () => {
    const missing = await post('/v1/chat/completions', JSON.stringify(CHAT), {});
    expect(missing.status).toBe(401);
    expect(((await missing.json()) as OpenAIErrorBody).error.code).toBe('invalid_api_key');
    const wrong = await post('/v1/messages', JSON.stringify({ ...CHAT, max_tokens: 10 }), { 'x-api-key': 'sk-wrong' });
    expect(wrong.status).toBe(401);
    expect(((await wrong.json()) as AnthropicErrorBody).error.type).toBe('authentication_error');
    expect((await post('/v1/chat/completions', JSON.stringify(CHAT))).status).toBe(200);
    expect((await post('/v1/messages', JSON.stringify({ ...CHAT, max_tokens: 10 }), { 'x-api-key': 'sk-sim-secret' })).status).toBe(200);
  });

  it('validates fields in the protocol shape', async () => {
    const noModel = await post('/v1/chat/completions', JSON.stringify({ messages: CHAT.messages }));
    expect(noModel.status).toBe(400);
    expect(((await noModel.json()) as OpenAIErrorBody).error.param).toBe('model');
    const badN = await post('/v1/chat/completions', JSON.stringify({ ...CHAT, n: 0 }));
    expect(badN.status).toBe(400);
    const wrongMethod = await fetch(`${server.url}/v1/models`, { method: 'DELETE', headers: { authorization: 'Bearer sk-sim-secret' } });
    expect(wrongMethod.status).toBe(405);
  });

  it('keeps a bounded ring of received headers and counts requests by path', async () => {
    await post('/v1/chat/completions', JSON.stringify(CHAT), { authorization: 'Bearer sk-sim-secret', 'x-isobudget-case': 'case-7' });
    const headers = server.lastHeaders();
    expect(headers.at(-1)?.['x-isobudget-case']).toBe('case-7');
    expect(headers.at(-1)?.['authorization']).toBe('Bearer sk-sim-secret');
    for (let i = 0; i < 120; i += 1) await fetch(`${server.url}/v1/models`, { headers: { authorization: 'Bearer sk-sim-secret' } });
    expect(server.lastHeaders().length).toBeLessThanOrEqual(100);
    expect(server.stats.byPath['/v1/models']).toBeGreaterThanOrEqual(120);
    expect(server.stats.requests).toBeGreaterThanOrEqual(130);
  });
});
