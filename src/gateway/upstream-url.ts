/**
 * Where a request goes upstream: the upstream base URL plus the incoming path and query.
 * OpenAI-style bases end in `/v1` and Anthropic-style ones do not; the incoming path always
 * starts with `/v1`, so a base ending in `/v1` must not double it.
 */

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
    url(pathAndQuery) {
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
