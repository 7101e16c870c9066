/** Base URL mistakes shared by every client config, pure. */
export function hasDoubledV1(url: string): boolean {
  return /\/v1\/+v1(\/|$)/.test(url);
}

/** Claude Code appends `/v1/messages` itself: an ANTHROPIC_BASE_URL ending in /v1 doubles it. */
export function endsWithV1(url: string): boolean {
  return /\/v1\/*$/.test(url);
}

export function isHttpUrl(url: string): boolean {
  return /^https?:\/\/[^\s/]+/.test(url);
}

export function trimSlash(url: string): string {
  return url.replace(/\/+$/, '');
}
