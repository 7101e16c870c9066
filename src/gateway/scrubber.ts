/**
 * Keeps the upstream key out of everything the gateway emits (DESIGN §1, invariant 6).
 * Upstreams sometimes echo a key in an error ("Incorrect API key provided: sk-…"); error
 * bodies are read whole and scrubbed. Streamed bodies are scrubbed chunk by chunk with a
 * mask of the same length, so a `content-length` stays true.
 */
export interface Scrubber {
  text(value: string): string;
  /** Same-length mask: for bytes already promised by a content-length. */
  chunk(value: Buffer): Buffer;
  /** `[redacted]` in a whole body; the same buffer back when there is nothing to scrub. */
  body(value: Buffer): Buffer;
}

export const REDACTED = '[redacted]';

export function makeScrubber(secret: string | undefined): Scrubber {
  if (secret === undefined || secret.length < 8) return { text: (value) => value, chunk: (value) => value, body: (value) => value };
  const needle = Buffer.from(secret);
  return {
    text: (value) => (value.includes(secret) ? value.split(secret).join(REDACTED) : value),
    body: (value) => (value.includes(needle) ? Buffer.from(value.toString('utf8').split(secret).join(REDACTED)) : value),
    chunk(value) {
      let at = value.indexOf(needle);
      if (at === -1) return value;
      const copy = Buffer.from(value);
      for (; at !== -1; at = copy.indexOf(needle, at + needle.length)) copy.fill(0x2a, at, at + needle.length);
      return copy;
    },
  };
}
