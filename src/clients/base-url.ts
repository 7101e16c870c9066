/** Base URL mistakes shared by every client config, pure. */
import { containsSecret, looksLikeSecret } from './secrets.js';

export function hasDoubledV1(url: string): boolean {
  return /\/v1\/+v1(\/|$)/.test(url);
}

/** Claude Code appends `/v1/messages` itself: an ANTHROPIC_BASE_URL ending in /v1 doubles it. */
export function endsWithV1(url: string): boolean {
  return /\/v1\/*$/.test(pathOf(url));
}

export function isHttpUrl(url: string): boolean {
  return /^https?:\/\/[^\s/]+/.test(url);
}

export function trimSlash(url: string): string {
  return url.replace(/\/+$/, '');
}

/**
 * Codex appends `/responses` to `base_url`, and OpenAI-compatible servers serve it under a
 * version segment (`/v1/responses`; Gemini's `/v1beta/openai/responses`): a base URL whose
 * path has no such segment (`https://api.example.com`, `https://host/api`) gets 404s —
 * Codex then retries six times before it gives up.
 */
export function hasVersionSegment(url: string): boolean {
  return /\/v\d+[a-z0-9]*(\/|$)/i.test(pathOf(url));
}

/** An OpenAI-style base URL for Codex: `/v1` added when the path has no version segment. */
export function codexBaseUrl(url: string): string {
  const base = trimSlash(url);
  return hasVersionSegment(base) ? base : `${base}/v1`;
}

/** An Anthropic-style base URL for Claude Code: without a trailing `/v1` (it appends /v1/messages). */
export function anthropicBaseUrl(url: string): string {
  return trimSlash(url).replace(/\/v1$/, '');
}

/** Query parameter names that carry a credential. */
const CREDENTIAL_NAME = /key|token|secret|passw|auth|sig|credential/i;

/**
 * Where a URL carries a credential — user info, or a query parameter named like one or
 * holding what looks like a key — described without the value; undefined when it carries none.
 */
export function credentialInUrl(url: string): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return containsSecret(url) ? 'a key-shaped part' : undefined;
  }
  if (parsed.username !== '' || parsed.password !== '') return 'user info (user:password@)';
  if (parsed.pathname.split('/').some((segment) => looksLikeSecret(decodeURIComponent(segment)))) return 'its path';
  for (const [name, value] of parsed.searchParams) {
    if (value !== '' && (CREDENTIAL_NAME.test(name) || looksLikeSecret(value))) return `the query parameter \`${name}\``;
  }
  return undefined;
}

/** A query parameter (Codex `query_params`) that carries a credential. */
export function isCredentialParam(name: string, value: unknown): boolean {
  return typeof value === 'string' && value !== '' && (CREDENTIAL_NAME.test(name) || looksLikeSecret(value));
}

/**
 * A URL as messages may show it: no user info, query values replaced by `…`, and nothing at
 * all when the value itself looks like a key — findings are printed, keys never are.
 */
export function shownUrl(value: string): string {
  try {
    const parsed = new URL(value);
    parsed.username = '';
    parsed.password = '';
    for (const name of [...new Set(parsed.searchParams.keys())]) parsed.searchParams.set(name, '…');
    const text = parsed.toString();
    return containsSecret(text) ? '(a URL that holds a key)' : text.replace(/%E2%80%A6/g, '…');
  } catch {
    return looksLikeSecret(value) || containsSecret(value) ? '(a value that looks like a key)' : value;
  }
}

function pathOf(url: string): string {
  try {
    return new URL(url).pathname;
  } catch {
    return url;
  }
}
