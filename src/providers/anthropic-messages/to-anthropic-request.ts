import type { MessageCreateParamsNonStreaming } from '@anthropic-ai/sdk/resources/messages';
import type { GenerateRequest } from '../spec.js';

/**
 * GenerateRequest → messages.create body. System messages go to the top-level `system`
 * (joined, in order): the Messages API has no system role inside `messages`. There is no `n`
 * and no `seed` in this API.
 *
 * `temperature` is not sent: the Messages API deprecated it and SDK 1.x removed it from the
 * request type, so sending it would at best be ignored and at worst be a 400 on every call.
 * The variant's temperature is still recorded in the run manifest by the runner.
 */
export function toAnthropicRequest(request: GenerateRequest): MessageCreateParamsNonStreaming {
  const system = request.messages.filter((message) => message.role === 'system').map((message) => message.content);
  const messages = request.messages
    .filter((message) => message.role !== 'system')
    .map((message) => ({ role: message.role === 'assistant' ? ('assistant' as const) : ('user' as const), content: message.content }));
  return {
    model: request.model,
    ...(system.length > 0 ? { system: system.join('\n\n') } : {}),
    messages,
    max_tokens: request.maxTokens,
    ...(request.tools === undefined || request.tools.length === 0
      ? {}
      : {
          tools: request.tools.map((tool) => ({
            name: tool.name,
            description: tool.description,
            // Anthropic requires an object schema; ToolDefinition.parameters is one by contract.
            input_schema: { ...tool.parameters, type: 'object' as const },
          })),
        }),
  };
}
