/**
 * Removes a secret from text before it can reach an error message, a log or a ledger
 * (DESIGN §1, invariant 6). SDKs and proxies sometimes echo request headers or the key itself
 * in error bodies ("Incorrect API key provided: sk-…"), so every message built from upstream
 * text passes through here.
 */
export const REDACTED = '[redacted]';

export function scrubSecret(text: string, secret: string | undefined): string {
  if (secret === undefined || secret === '') return text;
  return text.split(secret).join(REDACTED);
}
