/**
 * Which headers cross the gateway. Client credentials and the gateway's own headers never
 * go upstream (the upstream credential is the gateway's, added here); protocol headers
 * (`anthropic-version`, `anthropic-beta`, `x-stainless-*`, `session-id`, …) pass through.
 */
import type { IncomingHttpHeaders, OutgoingHttpHeaders } from 'node:http';
import type { Family } from './routes.js';

/** RFC 9110 §7.6.1 hop-by-hop headers, plus the ones Node sets itself. */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-authenticate', 'proxy-authorization', 'proxy-connection', 'te', 'trailer', 'transfer-encoding', 'upgrade', 'host', 'content-length', 'expect', 'http2-settings']);

/** Credentials and account selectors of the client: they belong to the client's account, not the upstream's. */
const CLIENT_CREDENTIALS = new Set(['authorization', 'x-api-key', 'api-key', 'cookie', 'openai-organization', 'openai-project', 'anthropic-organization-id']);

export type UpstreamAuth = 'auto' | 'bearer' | 'x-api-key';

export function upstreamRequestHeaders(incoming: IncomingHttpHeaders, family: Family, auth: UpstreamAuth, upstreamKey: string | undefined, bodyBytes: number | undefined): OutgoingHttpHeaders {
  const out: OutgoingHttpHeaders = {};
  // for…in, not Object.entries: no array of pairs per request (Node's header objects inherit nothing enumerable).
  for (const name in incoming) {
    const value = incoming[name];
    if (value === undefined || HOP_BY_HOP.has(name) || CLIENT_CREDENTIALS.has(name) || name.startsWith('x-isobudget-')) continue;
    out[name] = value;
  }
  // Identity, so the gateway can read usage from every body; loopback hops gain nothing from gzip.
  out['accept-encoding'] = 'identity';
  if (bodyBytes !== undefined) out['content-length'] = String(bodyBytes);
  if (upstreamKey !== undefined && upstreamKey !== '') {
    const scheme = auth === 'auto' ? (family === 'anthropic' ? 'x-api-key' : 'bearer') : auth;
    if (scheme === 'x-api-key') out['x-api-key'] = upstreamKey;
    else out.authorization = `Bearer ${upstreamKey}`;
  }
  return out;
}

/** Upstream response headers for the client: hop-by-hop ones dropped, the upstream key scrubbed. */
export function clientResponseHeaders(upstream: IncomingHttpHeaders, scrub: (text: string) => string, keepLength: boolean): OutgoingHttpHeaders {
  const out: OutgoingHttpHeaders = {};
  for (const name in upstream) {
    const value = upstream[name];
    if (value === undefined || (HOP_BY_HOP.has(name) && !(keepLength && name === 'content-length'))) continue;
    out[name] = Array.isArray(value) ? value.map(scrub) : scrub(value);
  }
  return out;
}
