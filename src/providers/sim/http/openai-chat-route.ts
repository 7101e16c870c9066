/** `POST /v1/chat/completions` — OpenAI chat, with native `n` and streaming. */
import type { ChatMessage } from '../../../core/messages.js';
import type { SimResult } from '../engine.js';
import { badRequest, isRecord, optionalInteger, optionalNumber, requiredModel } from './http-errors.js';
import { nowSeconds, sse, textDeltas, type Route, type RouteInput, type RouteReply, type SseEvent } from './route.js';
import type { ChatCompletion, ChatCompletionChunk, ChatToolCall, ChatUsage } from './wire-types.js';
import { toolCallsFromOpenAIChat, toolsFromOpenAIChat } from './wire-tools.js';

const DEFAULT_MAX_TOKENS = 4096;

function contentText(content: unknown, where: string): string {
  if (content === null || content === undefined) return '';
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    return content.map((part) => (isRecord(part) && typeof part['text'] === 'string' ? part['text'] : '')).join('');
  }
  throw badRequest(`${where}: content must be a string or an array of content parts`, 'messages');
}

export function chatMessagesFromOpenAI(messages: unknown): ChatMessage[] {
  if (!Array.isArray(messages) || messages.length === 0) throw badRequest('messages: a non-empty array is required', 'messages');
  return messages.map((message, i) => {
    if (!isRecord(message)) throw badRequest(`messages[${i}]: expected an object`, 'messages');
    const role = message['role'];
    const content = contentText(message['content'], `messages[${i}]`);
    if (role === 'system' || role === 'developer') return { role: 'system', content };
    if (role === 'assistant') {
      const toolCalls = toolCallsFromOpenAIChat(message['tool_calls']);
      return toolCalls.length > 0 ? { role: 'assistant', content, toolCalls } : { role: 'assistant', content };
    }
    if (role === 'tool' || role === 'function') {
      const id = message['tool_call_id'];
      return typeof id === 'string' ? { role: 'tool', content, toolCallId: id } : { role: 'tool', content };
    }
    if (role === 'user') return { role: 'user', content };
    throw badRequest(`messages[${i}].role: unsupported role ${JSON.stringify(role)}`, 'messages');
  });
}

function usageBody(result: SimResult): ChatUsage {
  return {
    prompt_tokens: result.usage.inputTokens,
    completion_tokens: result.usage.outputTokens,
    total_tokens: result.usage.totalTokens,
    prompt_tokens_details: { cached_tokens: 0 },
    completion_tokens_details: { reasoning_tokens: 0 },
  };
}

function handle(input: RouteInput): RouteReply {
  const body = input.body;
  const model = requiredModel(body);
  const messages = chatMessagesFromOpenAI(body['messages']);
  const maxTokens = optionalInteger(body, 'max_completion_tokens', 1, 1_000_000) ?? optionalInteger(body, 'max_tokens', 1, 1_000_000) ?? DEFAULT_MAX_TOKENS;
  const n = optionalInteger(body, 'n', 1, 128) ?? 1;
  if (n > 1 && input.rejectNativeN) throw badRequest('n is not supported for this model', 'n', 'unsupported_parameter');
  const temperature = optionalNumber(body, 'temperature', 0, 2) ?? 1;
  const seed = optionalInteger(body, 'seed', Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER);
  const tools = toolsFromOpenAIChat(body['tools']);
  const result = input.simulate({ model, messages, maxTokens, temperature, n, tools, ...(seed === undefined ? {} : { seed }) });
  const id = input.nextId('chatcmpl-');
  const created = nowSeconds();

  if (body['stream'] !== true) {
    const completion: ChatCompletion = {
      id, object: 'chat.completion', created, model, system_fingerprint: 'isobudget-sim',
      choices: result.choices.map((choice, index) => ({
        index,
        message: choice.toolCalls
          ? { role: 'assistant', content: choice.text === '' ? null : choice.text, refusal: null, tool_calls: choice.toolCalls.map(wireCall) }
          : { role: 'assistant', content: choice.text, refusal: null },
        logprobs: null,
        finish_reason: choice.finishReason.raw ?? 'stop',
      })),
      ...(input.includeUsage ? { usage: usageBody(result) } : {}),
    };
    return { kind: 'json', status: 200, latencyMs: result.latencyMs, body: completion };
  }

  const streamOptions = body['stream_options'];
  const wantsUsage = isRecord(streamOptions) && streamOptions['include_usage'] === true;
  const base = { id, object: 'chat.completion.chunk' as const, created, model, system_fingerprint: 'isobudget-sim' };
  // With include_usage every chunk carries usage: null and one last chunk carries the usage.
  const chunk = (choices: ChatCompletionChunk['choices']): SseEvent =>
    sse({ ...base, choices, ...(wantsUsage ? { usage: null } : {}) } satisfies ChatCompletionChunk);
  const events: SseEvent[] = [];
  result.choices.forEach((choice, index) => {
    events.push(chunk([{ index, delta: { role: 'assistant', content: '' }, logprobs: null, finish_reason: null }]));
    for (const delta of textDeltas(choice.text)) events.push(chunk([{ index, delta: { content: delta }, logprobs: null, finish_reason: null }]));
    (choice.toolCalls ?? []).forEach((call, position) => {
      const head = { index: position, id: call.id, type: 'function' as const, function: { name: call.name, arguments: '' } };
      events.push(chunk([{ index, delta: { tool_calls: [head] }, logprobs: null, finish_reason: null }]));
      events.push(chunk([{ index, delta: { tool_calls: [{ index: position, function: { arguments: call.arguments } }] }, logprobs: null, finish_reason: null }]));
    });
    events.push(chunk([{ index, delta: {}, logprobs: null, finish_reason: choice.finishReason.raw ?? 'stop' }]));
  });
  if (wantsUsage && input.includeUsage) events.push(sse({ ...base, choices: [], usage: usageBody(result) } satisfies ChatCompletionChunk));
  events.push({ data: '[DONE]' });
  return { kind: 'sse', events, latencyMs: result.latencyMs };
}

function wireCall(call: { id: string; name: string; arguments: string }): ChatToolCall {
  return { id: call.id, type: 'function', function: { name: call.name, arguments: call.arguments } };
}

export const openaiChatRoute: Route = { method: 'POST', path: '/v1/chat/completions', protocol: 'openai', generates: true, handle };
