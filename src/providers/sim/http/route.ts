/**
 * A route turns a parsed request body into a reply — JSON or a list of SSE events — without
 * touching the socket, so the server can apply latency and faults the same way to all three
 * protocols, and routes stay plain functions.
 */
import type { ChatMessage } from '../../../core/messages.js';
import type { ToolDefinition } from '../../spec.js';
import type { SimRequest, SimResult } from '../engine.js';
import type { WireProtocol } from './http-errors.js';

export interface SseEvent {
  /** `event:` line (OpenAI Responses, Anthropic); absent for OpenAI chat. */
  event?: string;
  /** The `data:` payload: JSON text, or `[DONE]`. */
  data: string;
}

export type RouteReply =
  | { kind: 'json'; status: number; body: unknown; latencyMs: number }
  | { kind: 'sse'; events: SseEvent[]; latencyMs: number };

export interface RouteInput {
  /** The JSON body (an object), or {} for GET. */
  body: Record<string, unknown>;
  simulate(request: SimRequest): SimResult;
  /** Prompt tokens as this server bills them (its billing profile): what count_tokens answers. */
  countPrompt(messages: readonly ChatMessage[], tools: readonly ToolDefinition[]): number;
  /** False when the missing-usage fault hit this request: the reply must omit usage. */
  includeUsage: boolean;
  rejectNativeN: boolean;
  /** A fresh id with the protocol's prefix (`chatcmpl-`, `resp_`, `msg_`). */
  nextId(prefix: string): string;
}

export interface Route {
  method: 'GET' | 'POST';
  path: string;
  protocol: WireProtocol;
  /** Model calls draw faults; metadata routes (models, count_tokens) do not. */
  generates: boolean;
  handle(input: RouteInput): RouteReply;
}

/** Deltas of a few words each; concatenated they give back `text` exactly. */
export function textDeltas(text: string, wordsPerDelta = 3): string[] {
  const words = text.match(/\s*\S+\s*/g);
  if (!words) return text === '' ? [] : [text];
  const deltas: string[] = [];
  for (let i = 0; i < words.length; i += wordsPerDelta) deltas.push(words.slice(i, i + wordsPerDelta).join(''));
  return deltas;
}

export function sse(data: unknown, event?: string): SseEvent {
  return event === undefined ? { data: JSON.stringify(data) } : { event, data: JSON.stringify(data) };
}

export function nowSeconds(): number {
  return Math.floor(Date.now() / 1000);
}
