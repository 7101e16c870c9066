/**
 * Keeps the upstream key out of everything the gateway emits (DESIGN §1, invariant 6).
 * Upstreams sometimes echo a key in an error ("Incorrect API key provided: sk-…"); error
 * bodies are read whole and scrubbed. Streamed bodies are scrubbed chunk by chunk with a
 * mask of the same length, so a `content-length` stays true — and a key cut in two by a
 * chunk boundary is caught too: the end of a chunk that could be the start of the key is
 * held back (at most |key| − 1 bytes) until the next chunk says whether it is.
 */
export interface Scrubber {
  text(value: string): string;
  /** Same-length mask: for bytes already promised by a content-length. */
  chunk(value: Buffer): Buffer;
  /** `[redacted]` in a whole body; the same buffer back when there is nothing to scrub. */
  body(value: Buffer): Buffer;
  /** A scrubber for one stream, whose chunks may cut the key anywhere. */
  stream(): StreamScrubber;
}

export interface StreamScrubber {
  /** What can be sent of this chunk now (masked), holding back a possible start of the key. */
  push(chunk: Buffer): Buffer;
  /** What was held back, at the end of the stream. */
  end(): Buffer;
}

export const REDACTED = '[redacted]';
const MASK = 0x2a;
const EMPTY = Buffer.alloc(0);

const passThrough: StreamScrubber = { push: (chunk) => chunk, end: () => EMPTY };

export function makeScrubber(secret: string | undefined): Scrubber {
  if (secret === undefined || secret.length < 8) return { text: (value) => value, chunk: (value) => value, body: (value) => value, stream: () => passThrough };
  const needle = Buffer.from(secret);
  const mask = (value: Buffer): Buffer => {
    let at = value.indexOf(needle);
    if (at === -1) return value;
    const copy = Buffer.from(value);
    for (; at !== -1; at = copy.indexOf(needle, at + needle.length)) copy.fill(MASK, at, at + needle.length);
    return copy;
  };
  return {
    text: (value) => (value.includes(secret) ? value.split(secret).join(REDACTED) : value),
    body: (value) => (value.includes(needle) ? Buffer.from(value.toString('utf8').split(secret).join(REDACTED)) : value),
    chunk: mask,
    stream: () => streamScrubber(needle, mask),
  };
}

function streamScrubber(needle: Buffer, mask: (value: Buffer) => Buffer): StreamScrubber {
  let held = EMPTY;
  return {
    push(chunk) {
      const joined = held.length === 0 ? chunk : Buffer.concat([held, chunk]);
      const masked = mask(joined);
      const keep = heldBack(masked, needle);
      held = keep === 0 ? EMPTY : Buffer.from(masked.subarray(masked.length - keep));
      return keep === 0 ? masked : masked.subarray(0, masked.length - keep);
    },
    end() {
      const rest = held;
      held = EMPTY;
      return rest;
    },
  };
}

/** Length of the longest end of `value` that is a proper start of `needle` (0 almost always: one byte compared). */
function heldBack(value: Buffer, needle: Buffer): number {
  const longest = Math.min(needle.length - 1, value.length);
  for (let length = longest; length > 0; length -= 1) {
    if (value[value.length - length] !== needle[0]) continue;
    if (value.compare(needle, 0, length, value.length - length) === 0) return length;
  }
  return 0;
}
