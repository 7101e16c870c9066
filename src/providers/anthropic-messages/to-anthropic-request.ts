import type { ContentBlockParam, MessageCreateParamsNonStreaming, MessageParam } from '@anthropic-ai/sdk/resources/messages';
import type { ChatMessage } from '../../core/messages.js';
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
  const messages = toAnthropicMessages(request.messages.filter((message) => message.role !== 'system'));
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

/**
 * Plain turns keep string content. An assistant turn with tool calls becomes `text` +
 * `tool_use` blocks; the `tool` messages after it become one user turn of `tool_result`
 * blocks (the API wants every result of a turn in the next user message, results first),
 * and a user text right after them joins that same turn.
 */
function toAnthropicMessages(messages: readonly ChatMessage[]): MessageParam[] {
  const out: MessageParam[] = [];
  let results: ContentBlockParam[] | undefined;
  for (const message of messages) {
    if (message.role === 'tool') {
      if (results === undefined) {
        results = [];
        out.push({ role: 'user', content: results });
      }
      results.push({ type: 'tool_result', tool_use_id: message.toolCallId ?? '', content: message.content, ...(message.isError ? { is_error: true } : {}) });
      continue;
    }
    if (message.role === 'user' && results !== undefined) {
      results.push({ type: 'text', text: message.content });
      results = undefined;
      continue;
    }
    results = undefined;
    if (message.role === 'assistant' && message.toolCalls !== undefined && message.toolCalls.length > 0) {
      const blocks: ContentBlockParam[] = message.content === '' ? [] : [{ type: 'text', text: message.content }];
      for (const call of message.toolCalls) blocks.push({ type: 'tool_use', id: call.id, name: call.name, input: toolInput(call.arguments) });
      out.push({ role: 'assistant', content: blocks });
      continue;
    }
    out.push({ role: message.role === 'assistant' ? 'assistant' : 'user', content: message.content });
  }
  return out;
}

/** `tool_use.input` must be an object; arguments that are not one are sent under `_raw`. */
function toolInput(text: string): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(text);
    if (parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)) return parsed as Record<string, unknown>;
  } catch {
    // fall through: keep what the model sent, visibly
  }
  return { _raw: text };
}
