/**
 * Where a request goes upstream: the upstream base URL plus the incoming path and query.
 * OpenAI-style bases end in `/v1` and Anthropic-style ones do not; the incoming path always
 * starts with `/v1`, so a base ending in `/v1` must not double it.
 */
export function upstreamUrl(base: string, pathAndQuery: string): URL {
  const url = new URL(base);
  const basePath = url.pathname.replace(/\/+$/, '');
  const [path = '/', query] = splitQuery(pathAndQuery);
  const tail = basePath.endsWith('/v1') && (path === '/v1' || path.startsWith('/v1/')) ? path.slice(3) : path;
  url.pathname = `${basePath}${tail}`;
  url.search = query === undefined ? '' : `?${query}`;
  return url;
}

function splitQuery(pathAndQuery: string): [string, string | undefined] {
  const index = pathAndQuery.indexOf('?');
  return index === -1 ? [pathAndQuery, undefined] : [pathAndQuery.slice(0, index), pathAndQuery.slice(index + 1)];
}

/** A base URL for logs and the ledger: credentials and query stripped. */
export function displayUrl(base: string): string {
  const url = new URL(base);
  url.username = '';
  url.password = '';
  url.search = '';
  return url.toString().replace(/\/$/, '');
}
