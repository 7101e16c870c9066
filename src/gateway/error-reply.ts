/**
 * Replies the gateway writes itself, in the calling protocol's own error shape: Anthropic
 * `{type:'error', error:{type,message}}`, OpenAI `{error:{message,type,param,code}}` — so an
 * SDK surfaces our message instead of a parse failure.
 */
import { anthropicErrorType } from '../core/anthropic-error-type.js';
import type { Family } from './routes.js';

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
 * The budget denial. Claude Code and Codex both stop at once on a 429 that carries
 * `x-should-retry: false` and no `retry-after` (fixtures/real-clients/README.md); with a
 * `retry-after` they would retry into the same wall. OpenAI's quota error type is the
 * closest standard meaning ("you exceeded your current quota").
 */
export function budgetSpentReply(family: Family, detail: string): GatewayReply {
  const message = `isobudget gateway: the token budget of this key is spent (${detail}); no retry will succeed`;
  return errorReply(family, 429, message, {
    type: family === 'anthropic' ? 'rate_limit_error' : 'insufficient_quota',
    code: 'budget_exhausted',
    headers: { 'x-should-retry': 'false' },
  });
}

export function unauthorizedReply(family: Family, message: string): GatewayReply {
  return errorReply(family, 401, `isobudget gateway: ${message}`, { code: 'invalid_api_key', headers: { 'x-should-retry': 'false' } });
}
