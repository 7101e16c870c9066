/**
 * The JSON the sim server sends, per protocol: the subset of each vendor's schema that the
 * sim fills in. Routes build against these types and tests read replies through them.
 */

export interface OpenAIErrorBody {
  error: { message: string; type: string; param: string | null; code: string | null };
}

export interface AnthropicErrorBody {
  type: 'error';
  error: { type: string; message: string };
}

export interface ChatUsage {
  prompt_tokens: number | undefined;
  completion_tokens: number | undefined;
  total_tokens: number | undefined;
  prompt_tokens_details: { cached_tokens: number };
  completion_tokens_details: { reasoning_tokens: number };
}

/** A function call as OpenAI chat writes it (message `tool_calls`). */
export interface ChatToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

export interface ChatCompletion {
  id: string;
  object: 'chat.completion';
  created: number;
  model: string;
  system_fingerprint: string;
  choices: Array<{
    index: number;
    /** content is null beside tool calls, as OpenAI sends it. */
    message: { role: 'assistant'; content: string | null; refusal: null; tool_calls?: ChatToolCall[] };
    logprobs: null;
    finish_reason: string;
  }>;
  usage?: ChatUsage;
}

export interface ChatCompletionChunk {
  id: string;
  object: 'chat.completion.chunk';
  created: number;
  model: string;
  system_fingerprint: string;
  choices: Array<{
    index: number;
    delta: { role?: 'assistant'; content?: string; tool_calls?: Array<{ index: number; id?: string; type?: 'function'; function: { name?: string; arguments: string } }> };
    logprobs: null;
    finish_reason: string | null;
  }>;
  /** Present (null, then the totals) only with `stream_options.include_usage`. */
  usage?: ChatUsage | null;
}

export interface ResponsesUsage {
  input_tokens: number | undefined;
  output_tokens: number | undefined;
  total_tokens: number | undefined;
  input_tokens_details: { cached_tokens: number };
  output_tokens_details: { reasoning_tokens: number };
}

export interface ResponsesOutputMessage {
  id: string;
  type: 'message';
  status: 'completed' | 'incomplete' | 'in_progress';
  role: 'assistant';
  content: Array<{ type: 'output_text'; text: string; annotations: unknown[] }>;
}

export interface ResponsesFunctionCall {
  id: string;
  type: 'function_call';
  status: 'in_progress' | 'completed';
  call_id: string;
  name: string;
  arguments: string;
}

export interface ResponsesObject {
  id: string;
  object: 'response';
  created_at: number;
  status: 'completed' | 'incomplete' | 'in_progress';
  incomplete_details: { reason: 'max_output_tokens' } | null;
  error: null;
  model: string;
  instructions: string | null;
  max_output_tokens: number | null;
  temperature: number;
  output: Array<ResponsesOutputMessage | ResponsesFunctionCall>;
  output_text: string;
  usage?: ResponsesUsage | null;
}

/** Every Responses stream event; the fields present depend on `type`. */
export interface ResponsesStreamEvent {
  type: string;
  sequence_number: number;
  response?: ResponsesObject;
  item?: ResponsesOutputMessage | ResponsesFunctionCall;
  item_id?: string;
  output_index?: number;
  content_index?: number;
  delta?: string;
  text?: string;
}

export interface AnthropicUsage {
  input_tokens: number | undefined;
  output_tokens: number | undefined;
  cache_creation_input_tokens: number;
  cache_read_input_tokens: number;
}

export type AnthropicContentBlock = { type: 'text'; text: string } | { type: 'tool_use'; id: string; name: string; input: Record<string, unknown> };

export interface AnthropicMessage {
  id: string;
  type: 'message';
  role: 'assistant';
  model: string;
  content: AnthropicContentBlock[];
  stop_reason: 'end_turn' | 'max_tokens' | 'tool_use' | null;
  stop_sequence: null;
  usage?: AnthropicUsage;
}

/** Every Anthropic stream event; the fields present depend on `type`. */
export interface AnthropicStreamEvent {
  type: string;
  message?: AnthropicMessage;
  index?: number;
  content_block?: AnthropicContentBlock;
  delta?: { type?: 'text_delta' | 'input_json_delta'; text?: string; partial_json?: string; stop_reason?: string; stop_sequence?: null };
  usage?: { output_tokens: number | undefined };
}

export interface ModelList {
  object: 'list';
  data: Array<{ id: string; object: 'model'; created: number; owned_by: string; type: 'model'; display_name: string; created_at: string }>;
  has_more: boolean;
  first_id: string | null;
  last_id: string | null;
}
