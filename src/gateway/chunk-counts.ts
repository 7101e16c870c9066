/**
 * Token counts of body chunks, remembered by content. A body is cut into content-defined
 * chunks — a cut wherever a rolling (gear) hash of the last 32 characters hits a pattern, so
 * the same content gives the same chunks whatever comes before or after it — and each chunk's
 * o200k count (+1: a cut can split a token) is kept in a map keyed by the chunk's text. New
 * text is counted in one go up to SYNC_CHARS, else in slices of SLICE_CHARS with a turn of the
 * event loop between them, so one huge body never stalls the other clients.
 */
import { countTokens } from '../core/tokens.js';

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

/** Content-defined chunk ends in text[from..to): a cut where the top 10 bits of the gear hash are 0 (~1.2 KB apart), never under MIN_CHUNK, always by MAX_CHUNK; `to` always ends one. */
export function chunkEnds(text: string, from: number, to: number, out: number[]): void {
  let hash = 0;
  let start = from;
  for (let i = from; i < to; i += 1) {
    hash = ((hash << 1) + (GEAR[text.charCodeAt(i) & 0xff] as number)) | 0;
    const length = i + 1 - start;
    if ((length >= MIN_CHUNK && hash >>> 22 === 0) || length >= MAX_CHUNK) {
      out.push(i + 1);
      start = i + 1;
    }
  }
  if (start < to) out.push(to);
}

/** The remembered count of a chunk, or undefined. */
export function cachedCount(chunk: string): number | undefined {
  return remembered.get(chunk);
}

/** Counts ranges of `text` (and remembers them) in one go when small, else in slices. */
export function countRanges(text: string, ranges: ReadonlyArray<readonly [number, number]>, chars: number): number | Promise<number> {
  return chars <= SYNC_CHARS ? countNow(text, ranges) : countInSlices(text, ranges);
}

/** Drops every remembered count (tests and benchmarks measure a cold start with it). */
export function forgetChunkCounts(): void {
  remembered.clear();
  rememberedChars = 0;
}

/** UTF-8 bytes of text[start..end). */
export function utf8Length(text: string, start: number, end: number): number {
  let bytes = 0;
  for (let i = start; i < end; i += 1) {
    const code = text.charCodeAt(i);
    // A surrogate pair is 4 bytes: 2 for each half.
    bytes += code < 0x80 ? 1 : code < 0x800 || (code >= 0xd800 && code < 0xe000) ? 2 : 3;
  }
  return bytes;
}

function countNow(text: string, ranges: ReadonlyArray<readonly [number, number]>): number {
  let total = 0;
  for (const [start, end] of ranges) {
    const chunk = text.slice(start, end);
    // Counted a moment ago (an earlier slice, a concurrent request, a repeat within this body)?
    total += remembered.get(chunk) ?? remember(chunk, countTokens(chunk) + 1);
  }
  return total;
}

async function countInSlices(text: string, ranges: ReadonlyArray<readonly [number, number]>): Promise<number> {
  let total = 0;
  let batch: Array<readonly [number, number]> = [];
  let batchChars = 0;
  for (const range of ranges) {
    batch.push(range);
    batchChars += range[1] - range[0];
    if (batchChars < SLICE_CHARS) continue;
    total += countNow(text, batch);
    batch = [];
    batchChars = 0;
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
  return total + countNow(text, batch);
}

function remember(chunk: string, count: number): number {
  // Full: start over (one map operation a chunk on the hot path, no LRU bookkeeping; 32 MB of
  // chunks is the prefixes of hundreds of sessions, and each is counted again once).
  if (rememberedChars + chunk.length > CACHE_CHARS) forgetChunkCounts();
  // A copy: a slice would keep the whole body it was cut from alive in the cache.
  remembered.set(` ${chunk}`.slice(1), count);
  rememberedChars += chunk.length;
  return count;
}
