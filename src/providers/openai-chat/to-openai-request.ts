import type { ChatCompletionCreateParamsNonStreaming, ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import type { ChatMessage } from '../../core/messages.js';
import type { GenerateRequest } from '../spec.js';

/**
 * GenerateRequest → chat.completions body.
 *
 * `max_tokens`, not `max_completion_tokens`: most OpenAI-compatible upstreams (gateways,
 * vLLM, llama.cpp, many hosted APIs) only know `max_tokens`, while OpenAI's reasoning models
 * want `max_completion_tokens` and reject `max_tokens`. We keep the widely accepted name; an
 * upstream that rejects it fails loudly with a 400 rather than silently ignoring the cap, so
 * the budget invariant cannot break unnoticed.
 *
 * `n` is sent only when more than one choice is wanted: some upstreams reject the field
 * outright, even `n: 1`.
 */
export function toOpenAIRequest(request: GenerateRequest): ChatCompletionCreateParamsNonStreaming {
  return {
    model: request.model,
    messages: request.messages.map(toChatMessageParam),
    max_tokens: request.maxTokens,
    temperature: request.temperature,
    ...(request.n > 1 ? { n: request.n } : {}),
    ...(request.seed === undefined ? {} : { seed: request.seed }),
    ...(request.tools === undefined || request.tools.length === 0
      ? {}
      : {
          tools: request.tools.map((tool) => ({
            type: 'function' as const,
            function: { name: tool.name, description: tool.description, parameters: tool.parameters },
          })),
        }),
  };
}

/** A tool loop's turns go back as the model sent them: assistant `tool_calls`, then `tool` results. */
function toChatMessageParam(message: ChatMessage): ChatCompletionMessageParam {
  if (message.role === 'tool') return { role: 'tool', tool_call_id: message.toolCallId ?? '', content: message.content };
  if (message.role === 'assistant' && message.toolCalls !== undefined && message.toolCalls.length > 0) {
    return {
      role: 'assistant',
      // OpenAI's own replies carry content null beside tool calls; '' would be a text turn.
      content: message.content === '' ? null : message.content,
      tool_calls: message.toolCalls.map((call) => ({ id: call.id, type: 'function' as const, function: { name: call.name, arguments: call.arguments } })),
    };
  }
  return { role: message.role, content: message.content };
}
