/** Tool calls from `sim serve`, streamed and not, in each protocol's own shape. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseSseText } from './http/sse-parse.js';
import type { AnthropicMessage, AnthropicStreamEvent, ChatCompletion, ChatCompletionChunk, ResponsesObject, ResponsesStreamEvent } from './http/wire-types.js';
import { startSimServer, type SimServer } from './server.js';

const QUESTION = 'How many units of K-4821 and M-1093 are in stock in total?';
const SCHEMA = { type: 'object', properties: { item: { type: 'string' } } };
const CALLS = ['{"item":"K-4821"}', '{"item":"M-1093"}'];

let server: SimServer;
beforeAll(async () => {
  server = await startSimServer({ seed: 2 });
});
afterAll(async () => {
  await server.close();
});

async function post(path: string, body: Record<string, unknown>): Promise<string> {
  const response = await fetch(`${server.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  expect(response.status).toBe(200);
  return response.text();
}

describe('tool calls from the simulator', () => {
  // seed 3 sends clean ids on the first turn (no sloppy lookup) under this server seed.
  const chat = { model: 'sim-small', messages: [{ role: 'user', content: QUESTION }], max_tokens: 200, seed: 3, tools: [{ type: 'function', function: { name: 'lookup', description: 'Stock', parameters: SCHEMA } }] };

  it('openai-chat: tool_calls with content null and finish tool_calls; the stream carries the same calls', async () => {
    const body = JSON.parse(await post('/v1/chat/completions', chat)) as ChatCompletion;
    const choice = body.choices[0];
    expect(choice?.finish_reason).toBe('tool_calls');
    expect(choice?.message.content).toBeNull();
    expect(choice?.message.tool_calls?.map((c) => [c.type, c.function.name, c.function.arguments])).toEqual(CALLS.map((a) => ['function', 'lookup', a]));
    const chunks = parseSseText(await post('/v1/chat/completions', { ...chat, stream: true })).filter((e) => e.data !== '[DONE]').map((e) => JSON.parse(e.data) as ChatCompletionChunk);
    const streamed = new Map<number, { id?: string; args: string }>();
    for (const delta of chunks.flatMap((c) => c.choices.flatMap((ch) => ch.delta.tool_calls ?? []))) {
      const entry = streamed.get(delta.index) ?? { args: '' };
      streamed.set(delta.index, { id: delta.id ?? entry.id, args: entry.args + delta.function.arguments });
    }
    expect([...streamed.values()]).toEqual(choice?.message.tool_calls?.map((c) => ({ id: c.id, args: c.function.arguments })));
    expect(chunks.at(-1)?.choices[0]?.finish_reason).toBe('tool_calls');
  });

  it('anthropic-messages: tool_use blocks and stop_reason tool_use; the stream sends input_json_delta', async () => {
    const request = { model: 'sim-small', max_tokens: 200, messages: [{ role: 'user', content: QUESTION }], tools: [{ name: 'lookup', description: 'Stock', input_schema: SCHEMA }] };
    const body = JSON.parse(await post('/v1/messages', request)) as AnthropicMessage;
    expect(body.stop_reason).toBe('tool_use');
    expect(body.content.map((b) => (b.type === 'tool_use' ? [b.id.slice(0, 6), b.name, JSON.stringify(b.input)] : b.type))).toEqual(CALLS.map((a) => ['toolu_', 'lookup', a]));
    const events = parseSseText(await post('/v1/messages', { ...request, stream: true })).map((e) => JSON.parse(e.data) as AnthropicStreamEvent);
    expect(events.filter((e) => e.type === 'content_block_start').map((e) => e.content_block?.type)).toEqual(['tool_use', 'tool_use']);
    expect(events.filter((e) => e.delta?.type === 'input_json_delta').map((e) => e.delta?.partial_json)).toEqual(CALLS);
    expect(events.find((e) => e.type === 'message_delta')?.delta?.stop_reason).toBe('tool_use');
  });

  it('openai-responses: function_call items only (no empty message); the stream sends argument deltas', async () => {
    const request = { model: 'sim-small', input: QUESTION, max_output_tokens: 200, tools: [{ type: 'function', name: 'lookup', description: 'Stock', parameters: SCHEMA }] };
    const body = JSON.parse(await post('/v1/responses', request)) as ResponsesObject;
    expect(body.status).toBe('completed');
    expect(body.output.map((item) => (item.type === 'function_call' ? [item.id.slice(0, 3), item.call_id.slice(0, 5), item.arguments] : item.type))).toEqual(CALLS.map((a) => ['fc_', 'call_', a]));
    const events = parseSseText(await post('/v1/responses', { ...request, stream: true })).map((e) => JSON.parse(e.data) as ResponsesStreamEvent);
    expect(events.filter((e) => e.type === 'response.function_call_arguments.done').map((e) => e['arguments' as keyof ResponsesStreamEvent])).toEqual(CALLS);
    expect(events.at(-1)?.type).toBe('response.completed');
  });
});
