import type { ResponseCreateParamsNonStreaming } from 'openai/resources/responses/responses';
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
  const input = request.messages
    .filter((message) => message.role !== 'system')
    .map((message) => ({ type: 'message' as const, role: message.role, content: message.content }));
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
