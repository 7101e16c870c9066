/**
 * `POST /v1/responses` — OpenAI Responses (what Codex speaks). `instructions` becomes the
 * system message; `input` is a string or a list of message items. A truncated answer is
 * `status: 'incomplete'`, and its stream ends with `response.incomplete`, as OpenAI does.
 */
import type { ChatMessage } from '../../../core/messages.js';
import type { SimResult } from '../engine.js';
import { badRequest, isRecord, optionalInteger, optionalNumber, requiredModel } from './http-errors.js';
import { nowSeconds, sse, textDeltas, type Route, type RouteInput, type RouteReply, type SseEvent } from './route.js';
import type { ResponsesFunctionCall, ResponsesObject, ResponsesOutputMessage, ResponsesStreamEvent } from './wire-types.js';
import { toolsFromResponses, withPrefix } from './wire-tools.js';

const DEFAULT_MAX_OUTPUT_TOKENS = 4096;

function itemText(content: unknown, where: string): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    return content.map((part) => (isRecord(part) && typeof part['text'] === 'string' ? part['text'] : '')).join('');
  }
  throw badRequest(`${where}: content must be a string or an array of content parts`, 'input');
}

export function chatMessagesFromResponses(instructions: unknown, input: unknown): ChatMessage[] {
  const messages: ChatMessage[] = [];
  if (typeof instructions === 'string' && instructions !== '') messages.push({ role: 'system', content: instructions });
  if (typeof input === 'string') {
    messages.push({ role: 'user', content: input });
    return messages;
  }
  if (!Array.isArray(input)) throw badRequest('input: a string or an array of input items is required', 'input');
  input.forEach((item, i) => {
    if (!isRecord(item)) throw badRequest(`input[${i}]: expected an object`, 'input');
    if (item['type'] === 'function_call_output') {
      const content = typeof item['output'] === 'string' ? item['output'] : JSON.stringify(item['output'] ?? '');
      messages.push(typeof item['call_id'] === 'string' ? { role: 'tool', content, toolCallId: item['call_id'] } : { role: 'tool', content });
      return;
    }
    // A call joins the assistant turn it belongs to (its text item, or the calls before it).
    if (item['type'] === 'function_call') {
      const call = { id: typeof item['call_id'] === 'string' ? item['call_id'] : '', name: String(item['name'] ?? ''), arguments: typeof item['arguments'] === 'string' ? item['arguments'] : '' };
      const last = messages.at(-1);
      if (last?.role === 'assistant') last.toolCalls = [...(last.toolCalls ?? []), call];
      else messages.push({ role: 'assistant', content: '', toolCalls: [call] });
      return;
    }
    // Reasoning items carry no prompt text here.
    if (item['type'] !== undefined && item['type'] !== 'message') return;
    const role = item['role'];
    const content = itemText(item['content'], `input[${i}]`);
    if (role === 'system' || role === 'developer') messages.push({ role: 'system', content });
    else if (role === 'assistant') messages.push({ role: 'assistant', content });
    else if (role === 'user') messages.push({ role: 'user', content });
    else throw badRequest(`input[${i}].role: unsupported role ${JSON.stringify(role)}`, 'input');
  });
  if (messages.length === 0) throw badRequest('input: no message items', 'input');
  return messages;
}

function handle(input: RouteInput): RouteReply {
  const body = input.body;
  const model = requiredModel(body);
  const messages = chatMessagesFromResponses(body['instructions'], body['input']);
  const maxTokens = optionalInteger(body, 'max_output_tokens', 1, 1_000_000) ?? DEFAULT_MAX_OUTPUT_TOKENS;
  const temperature = optionalNumber(body, 'temperature', 0, 2) ?? 1;
  const result = input.simulate({ model, messages, maxTokens, temperature, n: 1, tools: toolsFromResponses(body['tools']) });
  const id = input.nextId('resp_');
  const itemId = input.nextId('msg_');
  const full = responseObject(id, itemId, model, body, result, input.includeUsage);
  if (body['stream'] !== true) return { kind: 'json', status: 200, body: full, latencyMs: result.latencyMs };

  const events: SseEvent[] = [];
  const push = (type: string, fields: Omit<ResponsesStreamEvent, 'type' | 'sequence_number'> & Record<string, unknown>) =>
    events.push(sse({ type, sequence_number: events.length, ...fields }, type));
  const pending: ResponsesObject = { ...full, status: 'in_progress', output: [], output_text: '', incomplete_details: null, usage: null };
  const part = { type: 'output_text', text: '', annotations: [] };
  push('response.created', { response: pending });
  push('response.in_progress', { response: pending });
  full.output.forEach((item, index) => {
    if (item.type === 'function_call') {
      push('response.output_item.added', { output_index: index, item: { ...item, arguments: '', status: 'in_progress' } });
      push('response.function_call_arguments.delta', { item_id: item.id, output_index: index, delta: item.arguments });
      push('response.function_call_arguments.done', { item_id: item.id, output_index: index, arguments: item.arguments });
      push('response.output_item.done', { output_index: index, item });
      return;
    }
    const text = item.content[0]?.text ?? '';
    push('response.output_item.added', { output_index: index, item: { id: item.id, type: 'message', status: 'in_progress', role: 'assistant', content: [] } });
    push('response.content_part.added', { item_id: item.id, output_index: index, content_index: 0, part });
    for (const delta of textDeltas(text)) push('response.output_text.delta', { item_id: item.id, output_index: index, content_index: 0, delta, logprobs: [] });
    push('response.output_text.done', { item_id: item.id, output_index: index, content_index: 0, text, logprobs: [] });
    push('response.content_part.done', { item_id: item.id, output_index: index, content_index: 0, part: { ...part, text } });
    push('response.output_item.done', { output_index: index, item });
  });
  push(full.status === 'completed' ? 'response.completed' : 'response.incomplete', { response: full });
  return { kind: 'sse', events, latencyMs: result.latencyMs };
}

function responseObject(id: string, itemId: string, model: string, body: Record<string, unknown>, result: SimResult, includeUsage: boolean): ResponsesObject {
  const choice = result.choices[0];
  const text = choice?.text ?? '';
  const truncated = choice?.finishReason.unified === 'length';
  const message: ResponsesOutputMessage = {
    id: itemId,
    type: 'message',
    status: truncated ? 'incomplete' : 'completed',
    role: 'assistant',
    content: [{ type: 'output_text', text, annotations: [] }],
  };
  const calls: ResponsesFunctionCall[] = (choice?.toolCalls ?? []).map((call) => ({
    id: withPrefix(call.id, 'fc_'), type: 'function_call', status: 'completed', call_id: call.id, name: call.name, arguments: call.arguments,
  }));
  return {
    id,
    object: 'response',
    created_at: nowSeconds(),
    status: truncated ? 'incomplete' : 'completed',
    incomplete_details: truncated ? { reason: 'max_output_tokens' } : null,
    error: null,
    model,
    instructions: typeof body['instructions'] === 'string' ? body['instructions'] : null,
    max_output_tokens: typeof body['max_output_tokens'] === 'number' ? body['max_output_tokens'] : null,
    temperature: typeof body['temperature'] === 'number' ? body['temperature'] : 1,
    // A turn of calls alone has no message item, as OpenAI sends it.
    output: text === '' && calls.length > 0 ? calls : [message, ...calls],
    output_text: text,
    ...(includeUsage
      ? {
          usage: {
            input_tokens: result.usage.inputTokens,
            output_tokens: result.usage.outputTokens,
            total_tokens: result.usage.totalTokens,
            input_tokens_details: { cached_tokens: 0 },
            output_tokens_details: { reasoning_tokens: 0 },
          },
        }
      : {}),
  };
}

export const openaiResponsesRoute: Route = { method: 'POST', path: '/v1/responses', protocol: 'openai', generates: true, handle };
