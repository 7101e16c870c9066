import type { ResponseCreateParamsNonStreaming, ResponseInputItem } from 'openai/resources/responses/responses';
import type { ChatMessage } from '../../core/messages.js';
import type { GenerateRequest } from '../spec.js';

/**
 * GenerateRequest → responses.create body. System messages become `instructions` (joined,
 * in order); the rest become input messages. There is no `n` and no `seed` in this API.
 *
 * `store: false`: an eval run should not leave thousands of stored responses on the
 * upstream account, and nothing here chains `previous_response_id`.
 */
export function toResponsesRequest(request: GenerateRequest): ResponseCreateParamsNonStreaming {
  const system = request.messages.filter((message) => message.role === 'system').map((message) => message.content);
  const input = request.messages.filter((message) => message.role !== 'system').flatMap(toInputItems);
  return {
    model: request.model,
    ...(system.length > 0 ? { instructions: system.join('\n\n') } : {}),
    input,
    max_output_tokens: request.maxTokens,
    temperature: request.temperature,
    store: false,
    ...(request.tools === undefined || request.tools.length === 0
      ? {}
      : {
          tools: request.tools.map((tool) => ({
            type: 'function' as const,
            name: tool.name,
            description: tool.description,
            parameters: tool.parameters,
            // Non-strict: strict mode rewrites optional fields and rejects loose schemas.
            strict: false,
          })),
        }),
  };
}

/**
 * A tool loop's turns as Responses items: an assistant turn's tool calls become
 * `function_call` items (after its text, if any), a `tool` message a `function_call_output`.
 */
function toInputItems(message: ChatMessage): ResponseInputItem[] {
  if (message.role === 'tool') return [{ type: 'function_call_output', call_id: message.toolCallId ?? '', output: message.content }];
  const role = message.role === 'assistant' ? 'assistant' : message.role === 'system' ? 'system' : 'user';
  const text: ResponseInputItem[] = [{ type: 'message', role, content: message.content }];
  if (message.role !== 'assistant' || message.toolCalls === undefined || message.toolCalls.length === 0) return text;
  const calls: ResponseInputItem[] = message.toolCalls.map((call) => ({ type: 'function_call', call_id: call.id, name: call.name, arguments: call.arguments }));
  return message.content === '' ? calls : [...text, ...calls];
}
