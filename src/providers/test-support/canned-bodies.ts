/**
 * Protocol bodies as the vendors document them, small enough to read in a test. Each builder
 * takes only what a test varies; `usage: null` leaves the usage object out entirely.
 */
export const FAKE_KEY = 'sk-test-SECRET-1234567890abcdef';

export interface ChatBodyOptions {
  texts?: string[];
  finishReasons?: (string | null)[];
  usage?: Record<string, unknown> | null;
  toolCalls?: { id: string; name: string; arguments: string }[];
}

export function chatCompletionBody(options: ChatBodyOptions = {}): Record<string, unknown> {
  const texts = options.texts ?? ['Hello.'];
  const usage =
    options.usage === undefined
      ? {
          prompt_tokens: 12,
          completion_tokens: 3,
          total_tokens: 15,
          prompt_tokens_details: { cached_tokens: 4 },
          completion_tokens_details: { reasoning_tokens: 1 },
        }
      : options.usage;
  return {
    id: 'chatcmpl-stub',
    object: 'chat.completion',
    created: 1_700_000_000,
    model: 'stub-model-2026',
    choices: texts.map((text, index) => ({
      index,
      message: {
        role: 'assistant',
        content: options.toolCalls && index === 0 ? null : text,
        ...(options.toolCalls && index === 0
          ? { tool_calls: options.toolCalls.map((call) => ({ id: call.id, type: 'function', function: { name: call.name, arguments: call.arguments } })) }
          : {}),
      },
      // `null` is kept: some upstreams send it, and it must map to an error.
      finish_reason: options.finishReasons !== undefined && index < options.finishReasons.length ? options.finishReasons[index] : 'stop',
    })),
    ...(usage === null ? {} : { usage }),
  };
}

export interface ResponsesBodyOptions {
  text?: string;
  status?: string;
  incompleteReason?: string;
  usage?: Record<string, unknown> | null;
  functionCall?: { call_id: string; name: string; arguments: string };
}

export function responsesBody(options: ResponsesBodyOptions = {}): Record<string, unknown> {
  const usage =
    options.usage === undefined
      ? {
          input_tokens: 20,
          input_tokens_details: { cached_tokens: 8 },
          output_tokens: 5,
          output_tokens_details: { reasoning_tokens: 2 },
          total_tokens: 25,
        }
      : options.usage;
  const output: unknown[] = [
    { type: 'reasoning', id: 'rs_1', summary: [] },
    {
      type: 'message',
      id: 'msg_1',
      role: 'assistant',
      status: 'completed',
      content: [
        { type: 'output_text', text: options.text ?? 'Hello', annotations: [] },
        { type: 'output_text', text: ' there.', annotations: [] },
      ],
    },
  ];
  if (options.functionCall) output.push({ type: 'function_call', id: 'fc_1', status: 'completed', ...options.functionCall });
  return {
    id: 'resp_stub',
    object: 'response',
    created_at: 1_700_000_000,
    model: 'stub-model-2026',
    status: options.status ?? 'completed',
    incomplete_details: options.incompleteReason === undefined ? null : { reason: options.incompleteReason },
    output,
    ...(usage === null ? {} : { usage }),
  };
}

export interface AnthropicBodyOptions {
  text?: string;
  stopReason?: string | null;
  usage?: Record<string, unknown> | null;
  toolUse?: { id: string; name: string; input: Record<string, unknown> };
}

export function anthropicMessageBody(options: AnthropicBodyOptions = {}): Record<string, unknown> {
  const usage =
    options.usage === undefined
      ? { input_tokens: 10, cache_creation_input_tokens: 5, cache_read_input_tokens: 100, output_tokens: 7 }
      : options.usage;
  const content: unknown[] = [
    { type: 'thinking', thinking: 'not the answer', signature: 'sig' },
    { type: 'text', text: options.text ?? 'Hello' },
    { type: 'text', text: ' there.' },
  ];
  if (options.toolUse) content.push({ type: 'tool_use', ...options.toolUse });
  return {
    id: 'msg_stub',
    type: 'message',
    role: 'assistant',
    model: 'stub-model-2026',
    content,
    stop_reason: options.stopReason === undefined ? 'end_turn' : options.stopReason,
    stop_sequence: null,
    ...(usage === null ? {} : { usage }),
  };
}

/** An upstream error body in the OpenAI shape (Anthropic's differs only in `type`). */
export function openAIErrorBody(message: string, extra: { param?: string; code?: string } = {}): Record<string, unknown> {
  return { error: { message, type: 'invalid_request_error', param: extra.param ?? null, code: extra.code ?? null } };
}

export function anthropicErrorBody(type: string, message: string): Record<string, unknown> {
  return { type: 'error', error: { type, message } };
}
