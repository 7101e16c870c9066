/**
 * Replies the gateway writes itself, in the calling protocol's own error shape: Anthropic
 * `{type:'error', error:{type,message}}`, OpenAI `{error:{message,type,param,code}}` — so an
 * SDK surfaces our message instead of a parse failure.
 */
import { anthropicErrorType } from '../core/anthropic-error-type.js';
import type { Family, GenerationProtocol } from './routes.js';

export interface GatewayReply {
  status: number;
  headers: Record<string, string>;
  body: string;
}

interface ErrorOptions {
  /** Anthropic `error.type` / OpenAI `error.type`, when not derived from the status. */
  type?: string;
  /** OpenAI `error.code`. */
  code?: string;
  headers?: Record<string, string>;
}


function openaiType(status: number): string {
  if (status >= 500) return 'server_error';
  return 'invalid_request_error';
}

export function errorReply(family: Family, status: number, message: string, options: ErrorOptions = {}): GatewayReply {
  const body = family === 'anthropic'
    ? { type: 'error', error: { type: options.type ?? anthropicErrorType(status), message } }
    : { error: { message, type: options.type ?? openaiType(status), param: null, code: options.code ?? null } };
  return { status, headers: { 'content-type': 'application/json', 'x-isobudget-gateway': 'error', ...options.headers }, body: JSON.stringify(body) };
}

/**
 * The budget denial. Claude Code (Messages) and OpenAI SDK clients (Chat) stop at once on a 429
 * that carries `x-should-retry: false` and no `retry-after` (fixtures/real-clients/README.md);
 * with a `retry-after` they would retry into the same wall. OpenAI's quota error type is the
 * closest standard meaning ("you exceeded your current quota").
 *
 * The Responses API — Codex's only protocol — gets a 400 instead: Codex 0.171.0 maps a 429
 * `insufficient_quota` to its own "Quota exceeded. Check your plan and billing details." and
 * any other 429 to "exceeded retry limit", and retries a 402 or 403 five times; a 400 it does
 * not retry and prints with the gateway's message (tried against the real binary; README,
 * "Gateway and clients").
 */
export function budgetSpentReply(family: Family, detail: string, protocol?: GenerationProtocol): GatewayReply {
  const message = `isobudget gateway: the token budget of this key is spent (${detail}); no retry will succeed`;
  return errorReply(family, protocol === 'openai-responses' ? 400 : 429, message, {
    type: family === 'anthropic' ? 'rate_limit_error' : 'insufficient_quota',
    code: 'budget_exhausted',
    headers: { 'x-should-retry': 'false' },
  });
}

/** A key closed for good (over_reservation): 403, or a 400 on the Responses API (Codex retries a 403; see budgetSpentReply). */
export function keyClosedReply(family: Family, message: string, protocol?: GenerationProtocol): GatewayReply {
  return errorReply(family, protocol === 'openai-responses' ? 400 : 403, message, { code: 'key_closed', headers: { 'x-should-retry': 'false' } });
}

export function unauthorizedReply(family: Family, message: string): GatewayReply {
  return errorReply(family, 401, `isobudget gateway: ${message}`, { code: 'invalid_api_key', headers: { 'x-should-retry': 'false' } });
}
