/**
 * Where a request goes upstream: the upstream base URL plus the incoming path and the allowed
 * part of its query. OpenAI-style bases end in `/v1` and Anthropic-style ones do not; the
 * incoming path always starts with `/v1`, so a base ending in `/v1` must not double it.
 *
 * Only query parameters on FORWARDED_QUERY leave: a client's query can carry a credential
 * (`?key=ibk-…`, a virtual key that must never reach the provider) or a switch the gateway did
 * not judge, and the upstream's own parameters belong in the base URL.
 */

/** Client query parameters passed on: Anthropic's `beta` (Claude Code sends `?beta=true`), Azure's `api-version`. */
export const FORWARDED_QUERY: ReadonlySet<string> = new Set(['beta', 'api-version']);

/** `pathAndQuery` with every query parameter not on FORWARDED_QUERY dropped (their order and spelling kept). */
export function allowedPathAndQuery(pathAndQuery: string): string {
  const mark = pathAndQuery.indexOf('?');
  if (mark === -1) return pathAndQuery;
  const kept = pathAndQuery
    .slice(mark + 1)
    .split('&')
    .filter((pair) => FORWARDED_QUERY.has(queryName(pair)));
  return kept.length === 0 ? pathAndQuery.slice(0, mark) : `${pathAndQuery.slice(0, mark)}?${kept.join('&')}`;
}

function queryName(pair: string): string {
  const equals = pair.indexOf('=');
  const raw = equals === -1 ? pair : pair.slice(0, equals);
  try {
    return decodeURIComponent(raw.replace(/\+/g, ' '));
  } catch {
    // Undecodable: not a name on the list.
    return '';
  }
}

/** The upstream base parsed once; `url()` then only builds a path per request (a URL object per call costs). */
export interface UpstreamTarget {
  secure: boolean;
  hostname: string;
  port: number;
  url(pathAndQuery: string): UpstreamLocation;
}

export interface UpstreamLocation {
  hostname: string;
  port: number;
  /** Path and query. */
  path: string;
}

export function upstreamTarget(base: string): UpstreamTarget {
  const parsed = new URL(base);
  const secure = parsed.protocol === 'https:';
  const basePath = parsed.pathname.replace(/\/+$/, '');
  const dedupe = basePath.endsWith('/v1');
  const hostname = parsed.hostname.replace(/^\[|\]$/g, '');
  const port = parsed.port === '' ? (secure ? 443 : 80) : Number(parsed.port);
  return {
    secure, hostname, port,
    url(incoming) {
      const pathAndQuery = allowedPathAndQuery(incoming);
      const doubled = dedupe && (pathAndQuery === '/v1' || pathAndQuery.startsWith('/v1/') || pathAndQuery.startsWith('/v1?'));
      return { hostname, port, path: `${basePath}${doubled ? pathAndQuery.slice(3) : pathAndQuery}` };
    },
  };
}

/** The full upstream URL of a request (for display and tests). */
export function upstreamUrl(base: string, pathAndQuery: string): URL {
  return new URL(upstreamTarget(base).url(pathAndQuery).path, new URL(base).origin);
}

/** A base URL for logs and the ledger: credentials and query stripped (shared with the runner). */
export { displayUrl } from '../core/display-url.js';
