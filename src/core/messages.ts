/** One tool call a model asked for. */
export interface ToolCall {
  id: string;
  name: string;
  /** Arguments as the model sent them (a JSON string). */
  arguments: string;
}

/**
 * A chat message as isobudget passes it to providers. Tool traffic is flat optional fields
 * rather than a union so that the many `{ role, content }` literals stay valid: an assistant
 * turn may carry `toolCalls`; a `tool` message answers one call by `toolCallId`.
 */
export interface ChatMessage {
  role: 'system' | 'user' | 'assistant' | 'tool';
  content: string;
  /** Assistant only: the tool calls of this turn (content may then be ''). */
  toolCalls?: ToolCall[];
  /** Tool only: the id of the call this message answers. */
  toolCallId?: string;
  /** Tool only: the tool failed (threw, timed out, unknown); content holds the error. */
  isError?: boolean;
}
