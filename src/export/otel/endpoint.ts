/** `--endpoint URL` / `--header K=V` as the exporter takes them, checked before anything is sent. */
import { IsobudgetError } from '../../core/errors.js';

/**
 * The traces URL: a URL that ends in `/v1/traces` is used as given; any other is a base to
 * which `/v1/traces` is appended, as OTEL_EXPORTER_OTLP_ENDPOINT is
 * (`https://cloud.langfuse.com/api/public/otel` → `…/otel/v1/traces`).
 */
export function tracesUrl(endpoint: string, flag: string): string {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    throw new IsobudgetError('usage', `${flag} ${JSON.stringify(endpoint)} is not a URL`, { hint: `e.g. ${flag} http://127.0.0.1:4318 (an OTLP/HTTP collector), or https://cloud.langfuse.com/api/public/otel` });
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new IsobudgetError('usage', `${flag} must be an http(s) URL (OTLP over HTTP/protobuf), got ${url.protocol}`, { hint: `e.g. ${flag} http://127.0.0.1:4318` });
  if (url.username !== '' || url.password !== '') throw new IsobudgetError('usage', `${flag} must not carry credentials in the URL`, { hint: 'pass them as --header Authorization=… or in OTEL_EXPORTER_OTLP_HEADERS' });
  if (url.pathname.endsWith('/v1/traces')) return url.toString();
  url.pathname = `${url.pathname.replace(/\/+$/, '')}/v1/traces`;
  return url.toString();
}

/** `K=V` pairs; a value is never echoed back (it is usually a key). */
export function parseHeaders(values: readonly string[]): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const value of values) {
    const at = value.indexOf('=');
    const name = at > 0 ? value.slice(0, at).trim() : '';
    if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name)) throw new IsobudgetError('usage', `--header must be NAME=VALUE with an HTTP header name, got ${at > 0 ? `'${value.slice(0, at)}=…'` : 'no NAME='}`, { hint: 'e.g. --header Authorization="Basic $(printf %s "$PK:$SK" | base64)"' });
    headers[name] = value.slice(at + 1);
  }
  return headers;
}
