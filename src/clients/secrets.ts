/**
 * Recognising keys, placeholders and env references in client configs, pure. A key is
 * recognised by a known vendor prefix or by looking like one (a long run of key
 * characters mixing lower case and digits, which env var names and URLs never are).
 */
const KNOWN_PREFIX = /^(sk-ant-|sk-proj-|sk-or-|sk-|sk_|ibk-|AIza|ghp_|gho_|github_pat_|xox[abp]-|hf_|gsk_)[A-Za-z0-9_-]{8,}/;
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

export function isEnvName(value: string): boolean {
  return ENV_NAME.test(value);
}

export function looksLikeSecret(value: string): boolean {
  const v = value.trim();
  if (KNOWN_PREFIX.test(v)) return true;
  if (v.length < 24 || !/^[A-Za-z0-9._\-+/=]+$/.test(v) || /^[A-Z0-9_]+$/.test(v)) return false;
  return /[a-z]/.test(v) && /[0-9]/.test(v) && !v.includes('://');
}

/** A key anywhere inside a longer value (a header line, a URL query). */
export function containsSecret(value: string): boolean {
  return value.split(/[\s:=&?,;"']+/).some((part) => part !== '' && looksLikeSecret(part.replace(/^Bearer$/i, '')));
}

/** `YOUR_API_KEY`, `<key>`, `xxx`, `changeme`: a slot the user still has to fill. */
export function isPlaceholder(value: string): boolean {
  return /^(YOUR[_\- ]?.*KEY|<[^>]*>|x{3,}|changeme|\.\.\.|TODO)$/i.test(value.trim());
}

/** `$NAME` or `${NAME}`: an env reference, which JSON settings files do not expand. */
export function isEnvReference(value: string): boolean {
  return /^\$\{?[A-Za-z_][A-Za-z0-9_]*\}?$/.test(value.trim());
}

/** 1-based line of the first occurrence of `needle` in `text`, if any. */
export function lineOf(text: string, needle: string): number | undefined {
  const index = text.indexOf(needle);
  return index === -1 ? undefined : text.slice(0, index).split('\n').length;
}
