/**
 * URLs as they may be shown or stored: never with credentials. A `base_url` like
 * `http://user:secret@host/v1` must not reach a call record, a manifest, a log or the
 * terminal; the gateway, the runner and the CLI all strip it here.
 */

/** `url` without `user:password@`; the query is kept (some APIs need it, e.g. `?api-version=`). */
export function withoutUserinfo(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    // Not a URL we can parse: cut anything between the scheme and an `@` by hand.
    return url.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/?#]*@/i, '$1');
  }
  if (parsed.username === '' && parsed.password === '') return url;
  parsed.username = '';
  parsed.password = '';
  const text = parsed.toString();
  // URL.toString adds a '/' to a bare origin; keep the form the user wrote.
  return !url.endsWith('/') && text.endsWith('/') && parsed.pathname === '/' ? text.slice(0, -1) : text;
}

/** A base URL for logs and ledgers: credentials and query stripped, no trailing slash. */
export function displayUrl(base: string): string {
  const url = new URL(withoutUserinfo(base));
  url.search = '';
  return url.toString().replace(/\/$/, '');
}
