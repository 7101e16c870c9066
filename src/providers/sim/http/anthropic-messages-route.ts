/**
 * `POST /v1/messages` (also with `?beta=true`) and `/v1/messages/count_tokens` — Anthropic
 * Messages, what Claude Code speaks. No `n`: n paths are n calls, each paying the prompt.
 * Claude Code sends `accept: application/json` even when streaming, so `stream: true`
 * alone decides.
 */
import type { ChatMessage } from '../../../core/messages.js';
import type { SimResult } from '../engine.js';
import { badRequest, isRecord, optionalInteger, optionalNumber, requiredModel } from './http-errors.js';
import { sse, textDeltas, type Route, type RouteInput, type RouteReply, type SseEvent } from './route.js';
import type { AnthropicContentBlock, AnthropicMessage, AnthropicStreamEvent, AnthropicUsage } from './wire-types.js';
import { toolsFromAnthropic, withPrefix } from './wire-tools.js';

/** Text of a content value: a string, or blocks whose text (and tool results' text) is read. */
function blocksText(content: unknown, where: string): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) throw badRequest(`${where}: content must be a string or an array of content blocks`);
  return content
    .map((block) => {
      if (!isRecord(block)) return '';
      if (block['type'] === 'text' && typeof block['text'] === 'string') return block['text'];
      if (block['type'] === 'tool_result') return blocksText(block['content'] ?? '', where);
      return '';
    })
    .join('\n');
}

export function chatMessagesFromAnthropic(system: unknown, messages: unknown): ChatMessage[] {
  const out: ChatMessage[] = [];
  if (system !== undefined && system !== null) {
    const text = blocksText(system, 'system');
    if (text !== '') out.push({ role: 'system', content: text });
  }
  if (!Array.isArray(messages) || messages.length === 0) throw badRequest('messages: Field required (a non-empty array)');
  messages.forEach((message, i) => {
    if (!isRecord(message)) throw badRequest(`messages.${i}: expected an object`);
    const role = message['role'];
    const where = `messages.${i}.content`;
    // Claude Code puts a role:'system' message inside messages; treat it as system text.
    if (role === 'system') out.push({ role: 'system', content: blocksText(message['content'], where) });
    else if (role === 'user') out.push(...userMessages(message['content'], where));
    else if (role === 'assistant') out.push(assistantMessage(message['content'], where));
    else throw badRequest(`messages.${i}.role: unexpected role ${JSON.stringify(role)}`);
  });
  return out;
}

const isBlock = (type: string) => (block: unknown): block is Record<string, unknown> => isRecord(block) && block['type'] === type;

/** `tool_result` blocks become tool messages (in order), the rest of the turn a user message. */
function userMessages(content: unknown, where: string): ChatMessage[] {
  if (!Array.isArray(content) || !content.some(isBlock('tool_result'))) return [{ role: 'user', content: blocksText(content, where) }];
  const out: ChatMessage[] = content.filter(isBlock('tool_result')).map((block) => ({
    role: 'tool' as const,
    content: blocksText(block['content'] ?? '', where),
    ...(typeof block['tool_use_id'] === 'string' ? { toolCallId: block['tool_use_id'] } : {}),
    ...(block['is_error'] === true ? { isError: true } : {}),
  }));
  const rest = content.filter((block) => !isBlock('tool_result')(block));
  if (rest.length > 0) out.push({ role: 'user', content: blocksText(rest, where) });
  return out;
}

/** `tool_use` blocks become tool calls with their input as JSON text, the shape OpenAI uses. */
function assistantMessage(content: unknown, where: string): ChatMessage {
  if (!Array.isArray(content) || !content.some(isBlock('tool_use'))) return { role: 'assistant', content: blocksText(content, where) };
  const toolCalls = content.filter(isBlock('tool_use')).map((block) => ({
    id: typeof block['id'] === 'string' ? block['id'] : '',
    name: typeof block['name'] === 'string' ? block['name'] : '',
    arguments: JSON.stringify(block['input'] ?? {}),
  }));
  return { role: 'assistant', content: blocksText(content.filter((block) => !isBlock('tool_use')(block)), where), toolCalls };
}

function usageBody(result: SimResult, outputTokens: number | undefined): AnthropicUsage {
  return { input_tokens: result.usage.inputTokens, output_tokens: outputTokens, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };
}

function handle(input: RouteInput): RouteReply {
  const body = input.body;
  const model = requiredModel(body);
  const maxTokens = optionalInteger(body, 'max_tokens', 1, 1_000_000);
  if (maxTokens === undefined) throw badRequest('max_tokens: Field required');
  const messages = chatMessagesFromAnthropic(body['system'], body['messages']);
  const temperature = optionalNumber(body, 'temperature', 0, 1) ?? 1;
  const result = input.simulate({ model, messages, maxTokens, temperature, n: 1, tools: toolsFromAnthropic(body['tools']) });
  const choice = result.choices[0];
  const text = choice?.text ?? '';
  const calls = choice?.toolCalls ?? [];
  const stopReason = choice?.finishReason.unified === 'length' ? 'max_tokens' : calls.length > 0 ? 'tool_use' : 'end_turn';
  const id = input.nextId('msg_');
  const content: AnthropicContentBlock[] = text === '' && calls.length > 0 ? [] : [{ type: 'text', text }];
  for (const call of calls) content.push({ type: 'tool_use', id: withPrefix(call.id, 'toolu_'), name: call.name, input: JSON.parse(call.arguments) as Record<string, unknown> });
  const message: AnthropicMessage = {
    id, type: 'message', role: 'assistant', model,
    content,
    stop_reason: stopReason,
    stop_sequence: null,
    ...(input.includeUsage ? { usage: usageBody(result, result.usage.outputTokens) } : {}),
  };
  if (body['stream'] !== true) return { kind: 'json', status: 200, body: message, latencyMs: result.latencyMs };

  const events: SseEvent[] = [];
  const push = (type: string, fields: Omit<AnthropicStreamEvent, 'type'>) => events.push(sse({ type, ...fields }, type));
  push('message_start', {
    message: { ...message, content: [], stop_reason: null, ...(input.includeUsage ? { usage: usageBody(result, 0) } : {}) },
  });
  content.forEach((block, index) => {
    if (block.type === 'text') {
      push('content_block_start', { index, content_block: { type: 'text', text: '' } });
      // Anthropic sends its ping right after the first block starts.
      if (index === 0) push('ping', {});
      for (const delta of textDeltas(block.text)) push('content_block_delta', { index, delta: { type: 'text_delta', text: delta } });
    } else {
      push('content_block_start', { index, content_block: { ...block, input: {} } });
      if (index === 0) push('ping', {});
      push('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: JSON.stringify(block.input) } });
    }
    push('content_block_stop', { index });
  });
  push('message_delta', {
    delta: { stop_reason: stopReason, stop_sequence: null },
    ...(input.includeUsage ? { usage: { output_tokens: result.usage.outputTokens } } : {}),
  });
  push('message_stop', {});
  return { kind: 'sse', events, latencyMs: result.latencyMs };
}

function countTokensHandle(input: RouteInput): RouteReply {
  requiredModel(input.body);
  const messages = chatMessagesFromAnthropic(input.body['system'], input.body['messages']);
  return { kind: 'json', status: 200, body: { input_tokens: input.countPrompt(messages, toolsFromAnthropic(input.body['tools'])) }, latencyMs: 0 };
}

export const anthropicMessagesRoute: Route = { method: 'POST', path: '/v1/messages', protocol: 'anthropic', generates: true, handle };
export const anthropicCountTokensRoute: Route = {
  method: 'POST', path: '/v1/messages/count_tokens', protocol: 'anthropic', generates: false, handle: countTokensHandle,
};
