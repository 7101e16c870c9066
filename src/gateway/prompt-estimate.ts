/**
 * Our o200k count of a request body, the gateway's side of the shared estimator
 * (src/estimate/): the whole JSON text is counted — message text, tool schemas and JSON
 * punctuation, a superset of what is billed — and the estimator turns the count into a
 * reservation with the ratio learned for the upstream and model.
 *
 * Agents resend the same system prompt, tool schemas and history on every turn (Claude Code:
 * a ~48 KB prefix). The text is cut into content-defined chunks — a cut wherever a rolling
 * hash of the last 32 characters hits a pattern, so the same content gives the same chunks
 * whatever comes before or after it — and each chunk's count is remembered by its text: a
 * resent prefix costs a scan and a map lookup per ~1.2 KB. Each chunk counts one token more
 * than its text, since a cut can split a token. New text is counted in slices of SLICE_CHARS
 * with a turn of the event loop between them, so one huge body never stalls the other
 * clients; the tokenizer itself is linear on any input (src/core/bpe/long-piece-merge.ts).
 * When the key can afford it, new text is not even counted before the call goes upstream:
 * it is reserved at its UTF-8 byte count (`freshBound`), and counted after (admit-call.ts).
 */
import { countTokens } from '../core/tokens.js';

/** Text up to this many characters is counted in one go, uncached. */
const SMALL_CHARS = 2048;
/** New text up to this many characters is counted in one go (≤ ~2 ms; a few under load). */
const SYNC_CHARS = 8192;
/** Beyond that, new text counted between two turns of the event loop (characters). */
const SLICE_CHARS = 2048;
const MIN_CHUNK = 256;
const MAX_CHUNK = 2048;
/** Characters of remembered chunks kept at most. */
const CACHE_CHARS = 32 * 1024 * 1024;

const remembered = new Map<string, number>();
let rememberedChars = 0;

/** A fixed table of 256 random words for the rolling (gear) hash. */
const GEAR = (() => {
  const table = new Int32Array(256);
  let state = 0x9e3779b9;
  for (let i = 0; i < 256; i += 1) {
    state = (Math.imul(state, 1664525) + 1013904223) | 0;
    table[i] = state;
  }
  return table;
})();

/** A body's text after the cheap pass: what the cache knew, and the chunks it did not. */
export interface BodyMeasure {
  text: string;
  /** Tokens of the chunks the cache knew (o200k, +1 a chunk). */
  known: number;
  /** [start, end) of the chunks not seen before. */
  fresh: Array<[number, number]>;
  freshChars: number;
  /**
   * An upper bound on the fresh chunks' tokens that needs no tokenizer: their UTF-8 bytes,
   * +1 a chunk. A byte-level BPE (o200k, and the tokenizers upstreams bill with, which fall
   * back to bytes) never makes more tokens than bytes.
   */
  freshBound: number;
}

/** Chunks the text and looks every chunk up: a scan and a map lookup per ~1 KB, no tokenizing. */
export function measureBody(text: string): BodyMeasure {
  if (text.length <= SMALL_CHARS) return { text, known: countTokens(text), fresh: [], freshChars: 0, freshBound: 0 };
  let known = 0;
  const fresh: Array<[number, number]> = [];
  let freshChars = 0;
  let freshBound = 0;
  let start = 0;
  for (const end of chunkEnds(text)) {
    const count = cached(text.slice(start, end));
    if (count !== undefined) known += count;
    else {
      fresh.push([start, end]);
      freshChars += end - start;
      freshBound += utf8Length(text, start, end) + 1;
    }
    start = end;
  }
  return { text, known, fresh, freshChars, freshBound };
}

/** The exact count of what `measureBody` left fresh (and remembers it): in one go when small, else in slices between turns of the event loop. */
export function countFresh(measure: BodyMeasure): number | Promise<number> {
  if (measure.fresh.length === 0) return measure.known;
  if (measure.freshChars <= SYNC_CHARS) return measure.known + countRanges(measure.text, measure.fresh);
  return countInSlices(measure.text, measure.fresh, measure.known);
}

/** o200k tokens of a body's text (an over-count by one per chunk); a promise when new text had to be counted in slices. */
export function countBodyTokens(text: string): number | Promise<number> {
  return countFresh(measureBody(text));
}

/** Drops every remembered count (tests and benchmarks measure a cold start with it). */
export function forgetBodyCounts(): void {
  remembered.clear();
  rememberedChars = 0;
}

async function countInSlices(text: string, fresh: Array<[number, number]>, known: number): Promise<number> {
  let total = known;
  let batch: Array<[number, number]> = [];
  let batchChars = 0;
  for (const range of fresh) {
    batch.push(range);
    batchChars += range[1] - range[0];
    if (batchChars < SLICE_CHARS) continue;
    total += countRanges(text, batch);
    batch = [];
    batchChars = 0;
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
  return total + countRanges(text, batch);
}

function countRanges(text: string, ranges: Array<[number, number]>): number {
  let total = 0;
  for (const [start, end] of ranges) {
    const chunk = text.slice(start, end);
    // Counted a moment ago (an earlier slice, a concurrent request, a repeat within this body)?
    total += cached(chunk) ?? remember(chunk, countTokens(chunk) + 1);
  }
  return total;
}

/** Content-defined chunk ends: a cut where the top 10 bits of the gear hash are 0 (~1.2 KB apart), never under MIN_CHUNK, always by MAX_CHUNK. */
function chunkEnds(text: string): number[] {
  const ends: number[] = [];
  let hash = 0;
  let start = 0;
  for (let i = 0; i < text.length; i += 1) {
    hash = ((hash << 1) + (GEAR[text.charCodeAt(i) & 0xff] as number)) | 0;
    const length = i + 1 - start;
    if ((length >= MIN_CHUNK && hash >>> 22 === 0) || length >= MAX_CHUNK) {
      ends.push(i + 1);
      start = i + 1;
    }
  }
  if (start < text.length) ends.push(text.length);
  return ends;
}

function utf8Length(text: string, start: number, end: number): number {
  let bytes = 0;
  for (let i = start; i < end; i += 1) {
    const code = text.charCodeAt(i);
    // A surrogate pair is 4 bytes: 2 for each half.
    bytes += code < 0x80 ? 1 : code < 0x800 || (code >= 0xd800 && code < 0xe000) ? 2 : 3;
  }
  return bytes;
}

function cached(chunk: string): number | undefined {
  return remembered.get(chunk);
}

function remember(chunk: string, count: number): number {
  // Full: start over (one map operation a chunk on the hot path, no LRU bookkeeping; 32 MB of
  // chunks is the prefixes of hundreds of sessions, and each is counted again once).
  if (rememberedChars + chunk.length > CACHE_CHARS) forgetBodyCounts();
  // A copy: a slice would keep the whole body it was cut from alive in the cache.
  remembered.set(` ${chunk}`.slice(1), count);
  rememberedChars += chunk.length;
  return count;
}
