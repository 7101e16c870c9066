/**
 * `POST /v1/responses` — OpenAI Responses (what Codex speaks). `instructions` becomes the
 * system message; `input` is a string or a list of message items. A truncated answer is
 * `status: 'incomplete'`, and its stream ends with `response.incomplete`, as OpenAI does.
 */
import type { ChatMessage } from '../../../core/messages.js';
import type { SimResult } from '../engine.js';
import { badRequest, isRecord, optionalInteger, optionalNumber, requiredModel } from './http-errors.js';
import { nowSeconds, sse, textDeltas, type Route, type RouteInput, type RouteReply, type SseEvent } from './route.js';
import type { ResponsesObject, ResponsesStreamEvent } from './wire-types.js';

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
    // Tool output is context the model reads; reasoning and call items carry no prompt text here.
    if (item['type'] === 'function_call_output') {
      messages.push({ role: 'user', content: typeof item['output'] === 'string' ? item['output'] : JSON.stringify(item['output'] ?? '') });
      return;
    }
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
  const result = input.simulate({ model, messages, maxTokens, temperature, n: 1 });
  const id = input.nextId('resp_');
  const itemId = input.nextId('msg_');
  const full = responseObject(id, itemId, model, body, result, input.includeUsage);
  if (body['stream'] !== true) return { kind: 'json', status: 200, body: full, latencyMs: result.latencyMs };

  const text = result.choices[0]?.text ?? '';
  const events: SseEvent[] = [];
  const push = (type: string, fields: Omit<ResponsesStreamEvent, 'type' | 'sequence_number'> & Record<string, unknown>) =>
    events.push(sse({ type, sequence_number: events.length, ...fields }, type));
  const pending: ResponsesObject = { ...full, status: 'in_progress', output: [], output_text: '', incomplete_details: null, usage: null };
  const part = { type: 'output_text', text: '', annotations: [] };
  push('response.created', { response: pending });
  push('response.in_progress', { response: pending });
  push('response.output_item.added', { output_index: 0, item: { id: itemId, type: 'message', status: 'in_progress', role: 'assistant', content: [] } });
  push('response.content_part.added', { item_id: itemId, output_index: 0, content_index: 0, part });
  for (const delta of textDeltas(text)) push('response.output_text.delta', { item_id: itemId, output_index: 0, content_index: 0, delta, logprobs: [] });
  push('response.output_text.done', { item_id: itemId, output_index: 0, content_index: 0, text, logprobs: [] });
  push('response.content_part.done', { item_id: itemId, output_index: 0, content_index: 0, part: { ...part, text } });
  push('response.output_item.done', { output_index: 0, item: full.output[0] });
  push(full.status === 'completed' ? 'response.completed' : 'response.incomplete', { response: full });
  return { kind: 'sse', events, latencyMs: result.latencyMs };
}

function responseObject(id: string, itemId: string, model: string, body: Record<string, unknown>, result: SimResult, includeUsage: boolean): ResponsesObject {
  const choice = result.choices[0];
  const text = choice?.text ?? '';
  const truncated = choice?.finishReason.unified === 'length';
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
    output: [{
      id: itemId,
      type: 'message',
      status: truncated ? 'incomplete' : 'completed',
      role: 'assistant',
      content: [{ type: 'output_text', text, annotations: [] }],
    }],
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
