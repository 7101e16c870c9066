import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatMessage } from '../../core/messages.js';
import { countPromptTokens, countTokens } from '../../core/tokens.js';
import { simulate } from './engine.js';
import { parseSseText } from './http/sse-parse.js';
import type { AnthropicErrorBody, AnthropicMessage, AnthropicStreamEvent, ChatCompletion, ResponsesObject } from './http/wire-types.js';
import { startSimServer, type SimServer } from './server.js';

const SEED = 3;
const SKILL = 'Find a number that satisfies every constraint in the question. Reply with the number only.';
const USER = 'Find a three-digit number whose digits sum to 14 and that is divisible by 11.';
const THOROUGH = 'Explain your reasoning thoroughly, step by step. Give the final answer in double square brackets, like [[42]].';

let server: SimServer;
beforeAll(async () => {
  server = await startSimServer({ seed: SEED });
});
afterAll(async () => {
  await server.close();
});

function post(path: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${server.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
}

describe('POST /v1/messages', () => {
  it('answers like Anthropic, with the engine usage', async () => {
    const response = await post('/v1/messages', { model: 'sim-small', system: SKILL, messages: [{ role: 'user', content: USER }], max_tokens: 50 });
    expect(response.status).toBe(200);
    const body = (await response.json()) as AnthropicMessage;
    const messages: ChatMessage[] = [{ role: 'system', content: SKILL }, { role: 'user', content: USER }];
    const engine = simulate({ model: 'sim-small', messages, maxTokens: 50, temperature: 1, n: 1 }, { seed: SEED });
    expect(body).toMatchObject({ type: 'message', role: 'assistant', model: 'sim-small', stop_reason: 'end_turn', stop_sequence: null });
    expect(body.id).toMatch(/^msg_/);
    expect(body.content).toEqual([{ type: 'text', text: engine.choices[0]?.text }]);
    expect(body.usage).toEqual({ input_tokens: countPromptTokens(messages), output_tokens: engine.usage.outputTokens, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 });
  });

  it('bills the same prompt the same on all three protocols', async () => {
    const messages: ChatMessage[] = [{ role: 'system', content: SKILL }, { role: 'user', content: USER }];
    const chat = (await (await post('/v1/chat/completions', { model: 'sim-small', messages, max_tokens: 50 })).json()) as ChatCompletion;
    const responses = (await (await post('/v1/responses', { model: 'sim-small', instructions: SKILL, input: USER, max_output_tokens: 50 })).json()) as ResponsesObject;
    const anthropic = (await (await post('/v1/messages', { model: 'sim-small', system: [{ type: 'text', text: SKILL }], messages: [{ role: 'user', content: [{ type: 'text', text: USER }] }], max_tokens: 50 })).json()) as AnthropicMessage;
    const prompt = countPromptTokens(messages);
    expect([chat.usage?.prompt_tokens, responses.usage?.input_tokens, anthropic.usage?.input_tokens]).toEqual([prompt, prompt, prompt]);
    const text = chat.choices[0]?.message.content;
    expect([responses.output_text, firstText(anthropic)]).toEqual([text, text]);
  });

  it('tolerates a system message inside messages and the ?beta=true query', async () => {
    const response = await post('/v1/messages?beta=true', {
      model: 'claude-sonnet-4-5', max_tokens: 50,
      messages: [{ role: 'system', content: SKILL }, { role: 'user', content: USER }],
    });
    expect(response.status).toBe(200);
    const body = (await response.json()) as AnthropicMessage;
    expect(body.usage?.input_tokens).toBe(countPromptTokens([{ role: 'system', content: SKILL }, { role: 'user', content: USER }]));
    expect(firstText(body)).toMatch(/^\d{3}$/);
    expect(server.stats.byPath['/v1/messages']).toBeGreaterThan(0);
  });

  it('stops at max_tokens with stop_reason max_tokens', async () => {
    const body = (await (await post('/v1/messages', { model: 'sim-small', system: THOROUGH, messages: [{ role: 'user', content: 'Compute 47 + 38 * 3.' }], max_tokens: 12 })).json()) as AnthropicMessage;
    expect(body.stop_reason).toBe('max_tokens');
    expect(body.usage?.output_tokens).toBe(12);
  });

  it('streams message_start … message_stop when stream is true, even with accept: application/json', async () => {
    const response = await post('/v1/messages', { model: 'sim-small', system: THOROUGH, messages: [{ role: 'user', content: 'Compute (12 + 7) * 4.' }], max_tokens: 400, stream: true }, { accept: 'application/json' });
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    const events = parseSseText(await response.text());
    const payloads = events.map((e) => JSON.parse(e.data) as AnthropicStreamEvent);
    for (const [i, p] of payloads.entries()) expect(p.type).toBe(events[i]?.event);
    expect(payloads.map((p) => p.type).filter((t) => t !== 'content_block_delta')).toEqual([
      'message_start', 'content_block_start', 'ping', 'content_block_stop', 'message_delta', 'message_stop',
    ]);
    const start = payloads[0]?.message;
    const text = payloads.filter((p) => p.type === 'content_block_delta').map((p) => p.delta?.text ?? '').join('');
    const delta = payloads.find((p) => p.type === 'message_delta');
    const prompt = countPromptTokens([{ role: 'system', content: THOROUGH }, { role: 'user', content: 'Compute (12 + 7) * 4.' }]);
    expect(start?.usage).toEqual({ input_tokens: prompt, output_tokens: 0, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 });
    expect(text).toContain('[[76]]');
    expect(delta?.delta?.stop_reason).toBe('end_turn');
    expect(delta?.usage?.output_tokens).toBe(countTokens(text));
  });

  it('requires max_tokens, answering 400 in the Anthropic error shape', async () => {
    const response = await post('/v1/messages', { model: 'sim-small', messages: [{ role: 'user', content: USER }] });
    expect(response.status).toBe(400);
    const body = (await response.json()) as AnthropicErrorBody;
    expect(body.type).toBe('error');
    expect(body.error.type).toBe('invalid_request_error');
    expect(body.error.message).toContain('max_tokens');
  });

  it('counts tokens like the messages endpoint bills them', async () => {
    const response = await post('/v1/messages/count_tokens', { model: 'sim-small', system: SKILL, messages: [{ role: 'user', content: USER }] });
    expect(await response.json()).toEqual({ input_tokens: countPromptTokens([{ role: 'system', content: SKILL }, { role: 'user', content: USER }]) });
  });
});

function firstText(message: AnthropicMessage): string | undefined {
  return message.content.find((block) => block.type === 'text')?.text;
}

describe('x-sim-delay-ms', () => {
  it('says the delay the simulator applies: the simulated latency times the scale; a stream’s first event comes after half of it', async () => {
    const slow = await startSimServer({ seed: SEED, latencyScale: 0.5 });
    try {
      const body = { model: 'sim-small', system: SKILL, messages: [{ role: 'user', content: USER }], max_tokens: 50 };
      const messages: ChatMessage[] = [{ role: 'system', content: SKILL }, { role: 'user', content: USER }];
      const engine = simulate({ model: 'sim-small', messages, maxTokens: 50, temperature: 1, n: 1 }, { seed: SEED });
      const started = performance.now();
      const response = await fetch(`${slow.url}/v1/messages`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ ...body, stream: true }) });
      const delay = Number(response.headers.get('x-sim-delay-ms'));
      expect(delay).toBeCloseTo(engine.latencyMs * 0.5, 3);
      const reader = response.body?.getReader();
      await reader?.read();
      // Timers fire no earlier than asked (less a millisecond of timer rounding).
      expect(performance.now() - started).toBeGreaterThanOrEqual(delay / 2 - 1);
      await reader?.cancel();
      expect((await post('/v1/messages', body)).headers.get('x-sim-delay-ms')).toBe('0.000');
    } finally {
      await slow.close();
    }
  });
});
