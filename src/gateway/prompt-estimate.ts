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
 * resent prefix costs a scan and a map lookup per ~1 KB. Each chunk counts one token more than
 * its text, since a cut can split a token. New text is counted in slices of SLICE_CHARS with
 * a turn of the event loop between them, so one huge body never stalls the other clients; the
 * tokenizer itself is linear on any input (src/core/bpe/long-piece-merge.ts).
 */
import { countTokens } from '../core/tokens.js';

/** Text up to this many characters is counted in one go, uncached. */
const SMALL_CHARS = 2048;
/** New text counted between two turns of the event loop (characters): a few ms at most. */
const SLICE_CHARS = 16 * 1024;
const MIN_CHUNK = 256;
const MAX_CHUNK = 4096;
/** Characters of remembered chunks kept at most (least recently used dropped first). */
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

/** o200k tokens of a body's text (an over-count by one per chunk); a promise when new text had to be counted in slices. */
export function countBodyTokens(text: string): number | Promise<number> {
  if (text.length <= SMALL_CHARS) return countTokens(text);
  const cuts = chunkEnds(text);
  let total = 0;
  let fresh: Array<[number, number]> | undefined;
  let freshChars = 0;
  let start = 0;
  for (const end of cuts) {
    const chunk = text.slice(start, end);
    const known = cached(chunk);
    if (known !== undefined) total += known;
    else {
      (fresh ??= []).push([start, end]);
      freshChars += end - start;
    }
    start = end;
  }
  if (fresh === undefined) return total;
  if (freshChars <= SLICE_CHARS) return total + countFresh(text, fresh);
  return countInSlices(text, fresh, total);
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
    total += countFresh(text, batch);
    batch = [];
    batchChars = 0;
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
  return total + countFresh(text, batch);
}

function countFresh(text: string, ranges: Array<[number, number]>): number {
  let total = 0;
  for (const [start, end] of ranges) {
    const chunk = text.slice(start, end);
    total += remember(chunk, countTokens(chunk) + 1);
  }
  return total;
}

/** Content-defined chunk ends: a cut where the top 10 bits of the gear hash are 0 (~1 KB apart), never under MIN_CHUNK, always by MAX_CHUNK. */
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

function cached(chunk: string): number | undefined {
  const count = remembered.get(chunk);
  if (count !== undefined) {
    // Most recently used last, so eviction drops what no session has sent for longest.
    remembered.delete(chunk);
    remembered.set(chunk, count);
  }
  return count;
}

function remember(chunk: string, count: number): number {
  // A copy: a slice would keep the whole body it was cut from alive in the cache.
  remembered.set((` ${chunk}`).slice(1), count);
  rememberedChars += chunk.length;
  for (const oldest of remembered.keys()) {
    if (rememberedChars <= CACHE_CHARS) break;
    remembered.delete(oldest);
    rememberedChars -= oldest.length;
  }
  return count;
}
