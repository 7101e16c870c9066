import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatMessage } from '../../core/messages.js';
import { countPromptTokens, countTokens } from '../../core/tokens.js';
import { simulate } from './engine.js';
import { parseSseText } from './http/sse-parse.js';
import type { ChatCompletion, ChatCompletionChunk, ModelList, ResponsesObject, ResponsesStreamEvent } from './http/wire-types.js';
import { startSimServer, type SimServer } from './server.js';

const SEED = 11;
const SKILL = 'Reply with the date only, as `YYYY-MM-DD`.\n- Slash dates like `03/04/2021` are US style, `MM/DD/YYYY`: month first.';
const USER = 'Normalize this date to ISO 8601 (YYYY-MM-DD): 03/04/2021';
const MESSAGES: ChatMessage[] = [{ role: 'system', content: SKILL }, { role: 'user', content: USER }];
const LONG_USER = 'Compute 47 + 38 * 3.';
const THOROUGH = 'Explain your reasoning thoroughly, step by step. Give the final answer in double square brackets, like [[42]].';

let server: SimServer;
beforeAll(async () => {
  server = await startSimServer({ seed: SEED });
});
afterAll(async () => {
  await server.close();
});

async function post(path: string, body: unknown): Promise<Response> {
  return fetch(`${server.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
}

describe('POST /v1/chat/completions', () => {
  it('answers like OpenAI, with the engine usage', async () => {
    const response = await post('/v1/chat/completions', { model: 'sim-small', messages: MESSAGES, max_tokens: 64, temperature: 0.2 });
    expect(response.status).toBe(200);
    const body = (await response.json()) as ChatCompletion;
    const engine = simulate({ model: 'sim-small', messages: MESSAGES, maxTokens: 64, temperature: 0.2, n: 1 }, { seed: SEED });
    expect(body.object).toBe('chat.completion');
    expect(body.model).toBe('sim-small');
    expect(body.choices).toEqual([{ index: 0, message: { role: 'assistant', content: engine.choices[0]?.text, refusal: null }, logprobs: null, finish_reason: 'stop' }]);
    expect(body.choices[0]?.message.content).toBe('2021-03-04');
    expect(body.usage).toEqual({
      prompt_tokens: countPromptTokens(MESSAGES),
      completion_tokens: engine.usage.outputTokens,
      total_tokens: engine.usage.totalTokens,
      prompt_tokens_details: { cached_tokens: 0 },
      completion_tokens_details: { reasoning_tokens: 0 },
    });
  });

  it('accepts content parts and max_completion_tokens, and returns n choices with one usage', async () => {
    const messages = [{ role: 'developer', content: [{ type: 'text', text: THOROUGH }] }, { role: 'user', content: [{ type: 'text', text: LONG_USER }] }];
    const response = await post('/v1/chat/completions', { model: 'sim-small', messages, max_completion_tokens: 40, n: 3, seed: 5 });
    const body = (await response.json()) as ChatCompletion;
    expect(body.choices).toHaveLength(3);
    const completions = body.choices.map((c) => {
      expect(c.finish_reason).toBe('length');
      return countTokens(c.message.content ?? '');
    });
    expect(completions).toEqual([40, 40, 40]);
    const prompt = countPromptTokens([{ role: 'system', content: THOROUGH }, { role: 'user', content: LONG_USER }]);
    expect(body.usage?.prompt_tokens).toBe(prompt);
    expect(body.usage?.completion_tokens).toBe(120);
  });

  it('streams chunks per choice, then a usage chunk, then [DONE]', async () => {
    const response = await post('/v1/chat/completions', {
      model: 'sim-small', messages: [{ role: 'system', content: THOROUGH }, { role: 'user', content: LONG_USER }],
      max_tokens: 500, n: 2, temperature: 1, stream: true, stream_options: { include_usage: true },
    });
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    const events = parseSseText(await response.text());
    expect(events.at(-1)?.data).toBe('[DONE]');
    const chunks = events.slice(0, -1).map((e) => JSON.parse(e.data) as ChatCompletionChunk);
    const texts = ['', ''];
    const finish: string[] = [];
    for (const chunk of chunks.slice(0, -1)) {
      expect(chunk.object).toBe('chat.completion.chunk');
      expect(chunk.usage).toBeNull();
      const choice = chunk.choices[0];
      if (!choice) throw new Error('chunk without a choice');
      texts[choice.index] += choice.delta.content ?? '';
      if (choice.finish_reason) finish[choice.index] = choice.finish_reason;
    }
    const usageChunk = chunks.at(-1);
    expect(usageChunk?.choices).toEqual([]);
    const engine = simulate({ model: 'sim-small', messages: [{ role: 'system', content: THOROUGH }, { role: 'user', content: LONG_USER }], maxTokens: 500, temperature: 1, n: 2 }, { seed: SEED });
    expect(texts).toEqual(engine.choices.map((c) => c.text));
    expect(finish).toEqual(['stop', 'stop']);
    expect(usageChunk?.usage?.prompt_tokens).toBe(engine.usage.inputTokens);
    expect(usageChunk?.usage?.completion_tokens).toBe(engine.usage.outputTokens);
  });

  it('streams without a usage chunk unless include_usage is set', async () => {
    const response = await post('/v1/chat/completions', { model: 'sim-small', messages: MESSAGES, stream: true });
    const events = parseSseText(await response.text());
    const chunks = events.slice(0, -1).map((e) => JSON.parse(e.data) as ChatCompletionChunk);
    expect(chunks.every((c) => c.usage === undefined && c.choices.length === 1)).toBe(true);
  });

  it('rejects n > 1 when rejectNativeN is set', async () => {
    const strict = await startSimServer({ rejectNativeN: true });
    try {
      const response = await fetch(`${strict.url}/v1/chat/completions`, { method: 'POST', body: JSON.stringify({ model: 'sim-small', messages: MESSAGES, n: 4 }) });
      expect(response.status).toBe(400);
      expect(await response.json()).toEqual({ error: { message: 'n is not supported for this model', type: 'invalid_request_error', param: 'n', code: 'unsupported_parameter' } });
      const single = await fetch(`${strict.url}/v1/chat/completions`, { method: 'POST', body: JSON.stringify({ model: 'sim-small', messages: MESSAGES, n: 1 }) });
      expect(single.status).toBe(200);
    } finally {
      await strict.close();
    }
  });
});

describe('POST /v1/responses', () => {
  it('answers like the Responses API, with instructions as the system message', async () => {
    const response = await post('/v1/responses', { model: 'sim-small', instructions: SKILL, input: USER, max_output_tokens: 64 });
    const body = (await response.json()) as ResponsesObject;
    expect(body.object).toBe('response');
    expect(body.status).toBe('completed');
    expect(body.incomplete_details).toBeNull();
    expect(body.output_text).toBe('2021-03-04');
    expect(body.output[0]).toMatchObject({ type: 'message', role: 'assistant', content: [{ type: 'output_text', text: '2021-03-04' }] });
    expect(body.usage).toEqual({
      input_tokens: countPromptTokens(MESSAGES),
      output_tokens: countTokens('2021-03-04'),
      total_tokens: countPromptTokens(MESSAGES) + countTokens('2021-03-04'),
      input_tokens_details: { cached_tokens: 0 },
      output_tokens_details: { reasoning_tokens: 0 },
    });
  });

  it('takes message items with developer roles and content parts; truncation is incomplete', async () => {
    const input = [
      { role: 'developer', content: THOROUGH },
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: LONG_USER }] },
    ];
    const body = (await (await post('/v1/responses', { model: 'sim-small', input, max_output_tokens: 30 })).json()) as ResponsesObject;
    expect(body.status).toBe('incomplete');
    expect(body.incomplete_details).toEqual({ reason: 'max_output_tokens' });
    expect(body.usage?.output_tokens).toBe(30);
    expect(body.usage?.input_tokens).toBe(countPromptTokens([{ role: 'system', content: THOROUGH }, { role: 'user', content: LONG_USER }]));
  });

  it('streams created, deltas and completed events with the full response', async () => {
    const response = await post('/v1/responses', { model: 'sim-small', instructions: THOROUGH, input: LONG_USER, stream: true });
    const events = parseSseText(await response.text());
    const types = events.map((e) => e.event);
    expect(types[0]).toBe('response.created');
    expect(types.at(-1)).toBe('response.completed');
    expect(types).toContain('response.output_text.done');
    const payloads = events.map((e) => JSON.parse(e.data) as ResponsesStreamEvent);
    payloads.forEach((p, i) => {
      expect(p.type).toBe(events[i]?.event);
      expect(p.sequence_number).toBe(i);
    });
    const text = payloads.filter((p) => p.type === 'response.output_text.delta').map((p) => p.delta).join('');
    const final = payloads.at(-1)?.response;
    expect(text).toBe(final?.output_text);
    expect(final?.usage?.output_tokens).toBe(countTokens(text));
    expect(final?.usage?.input_tokens).toBe(countPromptTokens([{ role: 'system', content: THOROUGH }, { role: 'user', content: LONG_USER }]));
  });

  it('ends a truncated stream with response.incomplete', async () => {
    const response = await post('/v1/responses', { model: 'sim-small', instructions: THOROUGH, input: LONG_USER, stream: true, max_output_tokens: 10 });
    const events = parseSseText(await response.text());
    expect(events.at(-1)?.event).toBe('response.incomplete');
    expect((JSON.parse(events.at(-1)?.data ?? '{}') as ResponsesStreamEvent).response?.usage?.output_tokens).toBe(10);
  });
});

describe('GET /v1/models', () => {
  it('lists the sim models in the OpenAI list shape', async () => {
    const body = (await (await fetch(`${server.url}/v1/models`)).json()) as ModelList;
    expect(body.object).toBe('list');
    expect(body.data.map((m) => m.id)).toEqual(['sim-small', 'sim-large', 'sim-judge']);
    expect(body.data[0]).toMatchObject({ object: 'model', owned_by: 'isobudget-sim', type: 'model', display_name: 'sim-small' });
  });
});
