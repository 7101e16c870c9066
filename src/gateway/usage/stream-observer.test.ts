import { describe, expect, test } from 'vitest';
import { billedPromptTokens, simulate } from '../../providers/sim/engine.js';
import { anthropicMessagesRoute } from '../../providers/sim/http/anthropic-messages-route.js';
import { formatSse } from '../../providers/sim/http/http-io.js';
import { openaiChatRoute } from '../../providers/sim/http/openai-chat-route.js';
import { openaiResponsesRoute } from '../../providers/sim/http/openai-responses-route.js';
import type { Route, RouteReply } from '../../providers/sim/http/route.js';
import type { GenerationProtocol } from '../routes.js';
import { observeJsonBody } from './body-observer.js';
import { SseDecoder } from './sse-decoder.js';
import { createStreamObserver } from './stream-observer.js';

let ids = 0;
function reply(route: Route, body: Record<string, unknown>, includeUsage = true): RouteReply {
  return route.handle({ body, simulate: (request) => simulate(request, { seed: 1 }), countPrompt: (messages, tools) => billedPromptTokens(messages, tools), includeUsage, rejectNativeN: false, nextId: (prefix) => `${prefix}${(ids += 1)}` });
}

/** As the gateway reads a stream: blocks the observer does not want are never parsed. */
function observeStream(protocol: GenerationProtocol, text: string) {
  const bytes = Buffer.from(text);
  let filtered: ReturnType<ReturnType<typeof createStreamObserver>['result']> | undefined;
  // Whole, and cut into socket-sized, odd and single bytes: the byte gate must see every event.
  for (const size of [bytes.length, 64, 7, 1]) {
    const observer = createStreamObserver(protocol);
    const decoder = new SseDecoder(observer.marker, observer.literals);
    for (let at = 0; at < bytes.length; at += size) for (const event of decoder.push(bytes.subarray(at, at + size))) observer.onEvent(event);
    for (const event of decoder.end()) observer.onEvent(event);
    const result = observer.result();
    if (filtered === undefined) filtered = result;
    else expect(result, `chunks of ${size} bytes`).toEqual(filtered);
  }
  if (filtered === undefined) throw new Error('unreachable');
  // Reading every event gives the same usage and finish: the marker only saves work.
  const everything = createStreamObserver(protocol);
  const all = new SseDecoder();
  for (const event of [...all.push(Buffer.from(text)), ...all.end()]) everything.onEvent(event);
  const { usage, finish, error } = everything.result();
  expect({ usage: filtered.usage, finish: filtered.finish, error: filtered.error }).toEqual({ usage, finish, error });
  return filtered;
}

const messages = [{ role: 'user', content: 'What is 12 + 30? Explain.' }];
const CASES = [
  { protocol: 'anthropic-messages' as const, route: anthropicMessagesRoute, body: { model: 'sim-small', max_tokens: 200, messages } },
  { protocol: 'openai-chat' as const, route: openaiChatRoute, body: { model: 'sim-small', max_tokens: 200, messages, stream_options: { include_usage: true } } },
  { protocol: 'openai-responses' as const, route: openaiResponsesRoute, body: { model: 'sim-small', max_output_tokens: 200, input: messages } },
];

describe.each(CASES)('$protocol', ({ protocol, route, body }) => {
  test('stream usage equals the JSON usage the same request gets', () => {
    const json = reply(route, body);
    const sse = reply(route, { ...body, stream: true });
    if (json.kind !== 'json' || sse.kind !== 'sse') throw new Error('unexpected reply kinds');
    const fromBody = observeJsonBody(protocol, JSON.stringify(json.body));
    const fromStream = observeStream(protocol, sse.events.map(formatSse).join(''));
    expect(fromBody.usage.totalTokens).toBeGreaterThan(0);
    expect(fromStream.usage).toEqual(fromBody.usage);
    expect(fromStream.finish).toEqual(fromBody.finish);
    expect(fromStream.model).toBe('sim-small');
  });

  test('a reply without usage is unknown, never 0', () => {
    const json = reply(route, body, false);
    const sse = reply(route, { ...body, stream: true }, false);
    if (json.kind !== 'json' || sse.kind !== 'sse') throw new Error('unexpected reply kinds');
    expect(observeJsonBody(protocol, JSON.stringify(json.body)).usage.totalTokens).toBeUndefined();
    expect(observeStream(protocol, sse.events.map(formatSse).join('')).usage.totalTokens).toBeUndefined();
  });

  test('a stream cut before its final event has unknown usage', () => {
    const sse = reply(route, { ...body, stream: true });
    if (sse.kind !== 'sse') throw new Error('expected a stream');
    const cut = sse.events.slice(0, 2).map(formatSse).join('');
    expect(observeStream(protocol, cut).usage.totalTokens).toBeUndefined();
  });
});

test('Anthropic: message_delta usage is cumulative and replaces message_start counts, cache tokens included', () => {
  const text = [
    'event: message_start', 'data: {"type":"message_start","message":{"model":"claude-x","usage":{"input_tokens":10,"cache_read_input_tokens":90,"cache_creation_input_tokens":5,"output_tokens":1}}}', '',
    'event: message_delta', 'data: {"type":"message_delta","delta":{"stop_reason":"max_tokens"},"usage":{"output_tokens":42}}', '', '',
  ].join('\n');
  const observed = observeStream('anthropic-messages', text);
  expect(observed.usage).toEqual({ inputTokens: 105, outputTokens: 42, totalTokens: 147, cachedTokens: 90, reasoningTokens: undefined });
  expect(observed.finish).toEqual({ unified: 'length', raw: 'max_tokens' });
});

test('an error event in a stream is reported', () => {
  const text = 'event: error\ndata: {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}\n\n';
  expect(observeStream('anthropic-messages', text).error).toBe('Overloaded');
});

describe('usage sanity (issue 20 item 6)', () => {
  const anthropic = (deltas: string[]): string =>
    [
      'event: message_start', 'data: {"type":"message_start","message":{"model":"claude-x","usage":{"input_tokens":100,"output_tokens":1}}}', '',
      ...deltas.flatMap((usage) => ['event: message_delta', `data: {"type":"message_delta","delta":{"stop_reason":"end_turn"},"usage":${usage}}`, '']),
      '',
    ].join('\n');
  test('Anthropic: a trailing zero message_delta does not win over the real cumulative count', () => {
    expect(observeStream('anthropic-messages', anthropic(['{"output_tokens":2400}', '{"output_tokens":0,"input_tokens":0}'])).usage.totalTokens).toBe(2500);
  });
  test.each([['-2400'], ['12.5'], ['1e300']])('Anthropic: output_tokens %s makes the usage unknown (the reservation is booked)', (value) => {
    expect(observeStream('anthropic-messages', anthropic([`{"output_tokens":${value}}`])).usage.totalTokens).toBeUndefined();
  });
  test('Anthropic: a negative cache count makes the usage unknown', () => {
    expect(observeStream('anthropic-messages', anthropic(['{"output_tokens":10,"cache_read_input_tokens":-90}'])).usage.totalTokens).toBeUndefined();
  });
  const chat = (usages: string[]): string => [...usages.map((usage) => `data: {"id":"c","model":"m","choices":[],"usage":${usage}}\n\n`), 'data: [DONE]\n\n'].join('');
  test('chat: the largest of repeated usage chunks wins; a total below its parts is raised', () => {
    expect(observeStream('openai-chat', chat(['{"prompt_tokens":100,"completion_tokens":900,"total_tokens":1000}', '{"prompt_tokens":0,"completion_tokens":0,"total_tokens":0}'])).usage.totalTokens).toBe(1000);
    expect(observeStream('openai-chat', chat(['{"prompt_tokens":100,"completion_tokens":900,"total_tokens":50}'])).usage.totalTokens).toBe(1000);
    expect(observeStream('openai-chat', chat(['{"prompt_tokens":100,"completion_tokens":-90,"total_tokens":10}'])).usage.totalTokens).toBeUndefined();
  });
  test('JSON bodies: negative parts are unknown, a short total is raised, a cost is not a token count', () => {
    expect(observeJsonBody('openai-chat', '{"choices":[],"usage":{"prompt_tokens":2532,"completion_tokens":-2532,"total_tokens":0}}').usage.totalTokens).toBeUndefined();
    expect(observeJsonBody('openai-responses', '{"output":[],"usage":{"input_tokens":300,"output_tokens":700,"total_tokens":1}}').usage.totalTokens).toBe(1000);
    expect(observeJsonBody('openai-chat', '{"choices":[],"usage":{"prompt_tokens":10,"completion_tokens":5,"total_tokens":15,"cost":0.0012}}').usage.totalTokens).toBe(15);
    expect(observeJsonBody('anthropic-messages', '{"usage":{"input_tokens":10,"output_tokens":5,"cache_creation_input_tokens":-8}}').usage.totalTokens).toBeUndefined();
  });
});
