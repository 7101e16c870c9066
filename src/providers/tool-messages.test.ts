/** A tool loop's conversation as each protocol's request body: calls out, results back in. */
import { describe, expect, test } from 'vitest';
import type { ChatMessage } from '../core/messages.js';
import { toAnthropicRequest } from './anthropic-messages/to-anthropic-request.js';
import { toOpenAIRequest } from './openai-chat/to-openai-request.js';
import { toResponsesRequest } from './openai-responses/to-responses-request.js';
import { basicRequest } from './test-support/protocol-fixtures.js';

const CONVERSATION: ChatMessage[] = [
  { role: 'system', content: 'Use the tools.' },
  { role: 'user', content: 'Stock of K-1 and K-2?' },
  { role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 'lookup', arguments: '{"item":"K-1"}' }, { id: 'c2', name: 'lookup', arguments: '{"item":"2"}' }] },
  { role: 'tool', toolCallId: 'c1', content: '{"stock":5}' },
  { role: 'tool', toolCallId: 'c2', content: 'Error: unknown item id "2"', isError: true },
  { role: 'assistant', content: 'Fixing the id.', toolCalls: [{ id: 'c3', name: 'lookup', arguments: '{"item":"K-2"}' }] },
  { role: 'tool', toolCallId: 'c3', content: '{"stock":7}' },
];
const request = basicRequest({ messages: CONVERSATION });

describe('tool messages on the wire', () => {
  test('openai-chat: assistant tool_calls (content null when empty), tool messages by tool_call_id', () => {
    expect(toOpenAIRequest(request).messages).toEqual([
      { role: 'system', content: 'Use the tools.' },
      { role: 'user', content: 'Stock of K-1 and K-2?' },
      { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'lookup', arguments: '{"item":"K-1"}' } }, { id: 'c2', type: 'function', function: { name: 'lookup', arguments: '{"item":"2"}' } }] },
      { role: 'tool', tool_call_id: 'c1', content: '{"stock":5}' },
      { role: 'tool', tool_call_id: 'c2', content: 'Error: unknown item id "2"' },
      { role: 'assistant', content: 'Fixing the id.', tool_calls: [{ id: 'c3', type: 'function', function: { name: 'lookup', arguments: '{"item":"K-2"}' } }] },
      { role: 'tool', tool_call_id: 'c3', content: '{"stock":7}' },
    ]);
  });

  test('anthropic-messages: tool_use blocks, then one user turn of tool_result blocks (is_error kept)', () => {
    expect(toAnthropicRequest(request).messages).toEqual([
      { role: 'user', content: 'Stock of K-1 and K-2?' },
      { role: 'assistant', content: [{ type: 'tool_use', id: 'c1', name: 'lookup', input: { item: 'K-1' } }, { type: 'tool_use', id: 'c2', name: 'lookup', input: { item: '2' } }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'c1', content: '{"stock":5}' }, { type: 'tool_result', tool_use_id: 'c2', content: 'Error: unknown item id "2"', is_error: true }] },
      { role: 'assistant', content: [{ type: 'text', text: 'Fixing the id.' }, { type: 'tool_use', id: 'c3', name: 'lookup', input: { item: 'K-2' } }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'c3', content: '{"stock":7}' }] },
    ]);
  });

  test('anthropic-messages: a user text right after tool results joins their turn', () => {
    const messages = toAnthropicRequest(basicRequest({ messages: [...CONVERSATION, { role: 'user', content: 'And K-3?' }] })).messages;
    expect(messages.at(-1)).toEqual({ role: 'user', content: [{ type: 'tool_result', tool_use_id: 'c3', content: '{"stock":7}' }, { type: 'text', text: 'And K-3?' }] });
  });

  test('openai-responses: function_call items after the turn text, function_call_output by call_id', () => {
    expect(toResponsesRequest(request).input).toEqual([
      { type: 'message', role: 'user', content: 'Stock of K-1 and K-2?' },
      { type: 'function_call', call_id: 'c1', name: 'lookup', arguments: '{"item":"K-1"}' },
      { type: 'function_call', call_id: 'c2', name: 'lookup', arguments: '{"item":"2"}' },
      { type: 'function_call_output', call_id: 'c1', output: '{"stock":5}' },
      { type: 'function_call_output', call_id: 'c2', output: 'Error: unknown item id "2"' },
      { type: 'message', role: 'assistant', content: 'Fixing the id.' },
      { type: 'function_call', call_id: 'c3', name: 'lookup', arguments: '{"item":"K-2"}' },
      { type: 'function_call_output', call_id: 'c3', output: '{"stock":7}' },
    ]);
  });
});
