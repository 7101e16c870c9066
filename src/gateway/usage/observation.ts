/**
 * What the gateway learned about one model call from the upstream's reply: billed usage
 * (unknown stays undefined, never 0), why it stopped, which model answered, and the error
 * message of a failed call.
 */
import type { FinishReason } from '../../core/finish-reason.js';
import { UNKNOWN_USAGE, type Usage } from '../../core/usage.js';

export interface CallObservation {
  usage: Usage;
  finish: FinishReason | undefined;
  model: string | undefined;
  /** An upstream error message (an error event in a stream, or an error body). */
  error: string | undefined;
  /** The Responses API's response id (what a later `previous_response_id` names). */
  responseId?: string | undefined;
}

export function emptyObservation(): CallObservation {
  return { usage: { ...UNKNOWN_USAGE }, finish: undefined, model: undefined, error: undefined };
}

/** Parses JSON that may not be JSON (a proxy cut the body): undefined instead of a throw. */
export function parseJsonSafe(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** The message of an error body in either protocol's shape, cut to a readable length. */
export function errorMessageOf(body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const error = (body as Record<string, unknown>)['error'];
  const message = typeof error === 'object' && error !== null ? (error as Record<string, unknown>)['message'] : undefined;
  return typeof message === 'string' ? message.slice(0, 300) : undefined;
}
