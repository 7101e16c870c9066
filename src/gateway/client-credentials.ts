/**
 * What a client presents to the gateway. Claude Code sends `Authorization: Bearer` for
 * ANTHROPIC_AUTH_TOKEN, `x-api-key` for ANTHROPIC_API_KEY, and both when both are set;
 * OpenAI SDKs and Codex send Bearer. Every candidate is tried, in that order.
 */
import { timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';

export const ACCESS_TOKEN_HEADER = 'x-isobudget-access-token';
/** Optional tags on a call (`run=…,case=…`); a key's own tags win over them. */
export const TAGS_HEADER = 'x-isobudget-tags';

export function presentedKeys(headers: IncomingHttpHeaders): string[] {
  const keys: string[] = [];
  const bearer = /^Bearer\s+(.+)$/i.exec(headers.authorization ?? '')?.[1]?.trim();
  if (bearer) keys.push(bearer);
  const apiKey = single(headers['x-api-key'])?.trim();
  if (apiKey && apiKey !== bearer) keys.push(apiKey);
  return keys;
}

/** Constant-time comparison, so the access token cannot be guessed byte by byte from timing. */
export function accessTokenMatches(headers: IncomingHttpHeaders, expected: string): boolean {
  const given = Buffer.from(single(headers[ACCESS_TOKEN_HEADER]) ?? '');
  const wanted = Buffer.from(expected);
  return given.length === wanted.length && timingSafeEqual(given, wanted);
}

/** Claude Code groups a session with `x-claude-code-session-id`, Codex with `session-id`. */
export function sessionId(headers: IncomingHttpHeaders): string | undefined {
  return single(headers['x-claude-code-session-id']) ?? single(headers['session-id']);
}

/** `x-stainless-retry-count` (both official SDKs, hence Claude Code) makes attempts countable. */
export function attemptNumber(headers: IncomingHttpHeaders): number {
  const retries = Number(single(headers['x-stainless-retry-count']));
  return Number.isInteger(retries) && retries >= 0 ? retries + 1 : 1;
}

export function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
