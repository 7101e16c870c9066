/**
 * The provider spec: types only. Vendors depend on it, never the reverse.
 * Providers make exactly one HTTP attempt per `generate` call (SDK retries off): the runner
 * owns retries so that every attempt becomes a ledger record.
 */
import type { ChatMessage, ToolCall } from '../core/messages.js';
import type { FinishReason } from '../core/finish-reason.js';
import type { Usage } from '../core/usage.js';

export type Protocol = 'openai-chat' | 'openai-responses' | 'anthropic-messages' | 'sim';

export interface ToolDefinition {
  name: string;
  description: string;
  /** JSON Schema of the arguments object. */
  parameters: Record<string, unknown>;
}

// ToolCall lives in core because conversations (ChatMessage) carry it too.
export type { ToolCall } from '../core/messages.js';

export interface GenerateRequest {
  model: string;
  /** Includes the system message, if any, as the first element. */
  messages: ChatMessage[];
  /** Per-path completion cap (tokens). */
  maxTokens: number;
  temperature: number;
  /** Number of choices to ask for in this one call (native `n`); 1 for a single path. */
  n: number;
  /** Passed to providers that accept a seed (OpenAI, sim); ignored elsewhere. */
  seed?: number;
  tools?: ToolDefinition[];
  /** Aborts the attempt (timeout or Ctrl-C). */
  signal?: AbortSignal;
}

export interface GenerateChoice {
  text: string;
  finishReason: FinishReason;
  toolCalls?: ToolCall[];
}

export interface GenerateResult {
  choices: GenerateChoice[];
  /** Usage of the whole call: with native `n` one usage covers every choice. */
  usage: Usage;
  /** HTTP status of the successful attempt (200 for in-process providers). */
  status: number;
  /** Model name the server reported, when it did. */
  responseModel?: string;
}

export interface Provider {
  readonly protocol: Protocol;
  /** Where requests go; recorded in the ledger (never the key). */
  readonly baseUrl: string;
  /** Whether one call can return n choices (OpenAI chat `n`, sim). */
  readonly supportsNativeN: boolean;
  generate(request: GenerateRequest): Promise<GenerateResult>;
  /**
   * The upstream's own count of a request's prompt (tokens), where the API offers one
   * (Anthropic `count_tokens`); rejects when the upstream cannot count.
   */
  countPromptTokens?(request: Omit<GenerateRequest, 'signal'>, signal?: AbortSignal): Promise<number>;
  close?(): Promise<void>;
}
