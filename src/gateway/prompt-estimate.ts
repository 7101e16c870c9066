/**
 * Our o200k count of a request body, the gateway's side of the shared estimator
 * (src/estimate/): the whole JSON text is counted — message text, tool schemas and JSON
 * punctuation, a superset of what is billed — and the estimator turns the count into a
 * reservation with the ratio learned for the upstream and model.
 *
 * Agents resend the same system prompt, tool schemas and history on every turn (Claude Code:
 * a ~48 KB prefix), so counts are kept per content-defined chunk (chunk-counts.ts). A key's
 * last body is remembered with its chunks: the next body's chunks that are unchanged at the
 * start, and at the end (shifted by the length difference), are found by string comparisons
 * (memcmp: microseconds for 60 KB) with their counts; only the middle is chunked and looked up.
 * When the key can afford it, new text is not even counted before the call goes upstream:
 * it is reserved at its UTF-8 byte count (`freshBound`), and counted after (admit-call.ts).
 */
import { countTokens } from '../core/tokens.js';
import { cachedCount, chunkEnds, countRanges, forgetChunkCounts, utf8Length } from './chunk-counts.js';

/** Text up to this many characters is counted in one go, uncached. */
const SMALL_CHARS = 2048;
/**
 * Bodies longer than this (characters) are not chunked by content, compared or remembered: one
 * scan of a 32 MB body would hold the event loop for tens of ms. Their bound is 3 bytes a
 * UTF-16 unit, and their count, when needed, is taken in fixed slices between ticks.
 */
const HUGE_CHARS = 1 << 20;
/** Keys whose last body is remembered (oldest dropped first). */
const MEMO_KEYS = 256;

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

interface BodyMemo {
  text: string;
  ends: number[];
  /** Count per chunk; −1: not known when the body came. */
  counts: number[];
}

const memos = new Map<string, BodyMemo>();

/**
 * Chunks the text and finds each chunk's count without tokenizing: from the last body of
 * `memoKey` where it is unchanged, else from the chunk cache. No tokenizer runs here.
 */
export function measureBody(text: string, memoKey?: string): BodyMeasure {
  if (text.length <= SMALL_CHARS) return { text, known: countTokens(text), fresh: [], freshChars: 0, freshBound: 0 };
  if (text.length > HUGE_CHARS) return hugeBody(text);
  const previous = memoKey === undefined ? undefined : memos.get(memoKey);
  const ends: number[] = [];
  const counts: number[] = [];
  let middleStart = 0;
  let middleEnd = text.length;
  const tailEnds: number[] = [];
  const tailCounts: number[] = [];
  if (previous !== undefined) {
    const before = previous.text;
    let i = 0;
    for (; i < previous.ends.length; i += 1) {
      const start = i === 0 ? 0 : (previous.ends[i - 1] as number);
      const end = previous.ends[i] as number;
      if (end > text.length || text.slice(start, end) !== before.slice(start, end)) break;
      ends.push(end);
      counts.push(previous.counts[i] as number);
      middleStart = end;
    }
    const shift = text.length - before.length;
    for (let j = previous.ends.length - 1; j >= i; j -= 1) {
      const start = j === 0 ? 0 : (previous.ends[j - 1] as number);
      const end = previous.ends[j] as number;
      if (start + shift < middleStart || text.slice(start + shift, end + shift) !== before.slice(start, end)) break;
      tailEnds.push(end + shift);
      tailCounts.push(previous.counts[j] as number);
      middleEnd = start + shift;
    }
  }
  const middleFrom = ends.length;
  chunkEnds(text, middleStart, middleEnd, ends);
  for (let k = middleFrom; k < ends.length; k += 1) counts.push(-1);
  for (let k = tailEnds.length - 1; k >= 0; k -= 1) {
    ends.push(tailEnds[k] as number);
    counts.push(tailCounts[k] as number);
  }
  let known = 0;
  const fresh: Array<[number, number]> = [];
  let freshChars = 0;
  let freshBound = 0;
  for (let k = 0; k < ends.length; k += 1) {
    const start = k === 0 ? 0 : (ends[k - 1] as number);
    const end = ends[k] as number;
    let count = counts[k] as number;
    if (count < 0) count = counts[k] = cachedCount(text.slice(start, end)) ?? -1;
    if (count >= 0) known += count;
    else {
      fresh.push([start, end]);
      freshChars += end - start;
      freshBound += utf8Length(text, start, end) + 1;
    }
  }
  if (memoKey !== undefined) remember(memoKey, { text, ends, counts });
  return { text, known, fresh, freshChars, freshBound };
}

/** The exact count of what `measureBody` left fresh (and remembers it): in one go when small, else in slices between turns of the event loop. */
export function countFresh(measure: BodyMeasure): number | Promise<number> {
  if (measure.fresh.length === 0) return measure.known;
  const counted = countRanges(measure.text, measure.fresh, measure.freshChars);
  return typeof counted === 'number' ? measure.known + counted : counted.then((count) => measure.known + count);
}

/** o200k tokens of a body's text (an over-count by one per chunk); a promise when new text had to be counted in slices. */
export function countBodyTokens(text: string, memoKey?: string): number | Promise<number> {
  return countFresh(measureBody(text, memoKey));
}

/** Drops every remembered count and body (tests and benchmarks measure a cold start with it). */
export function forgetBodyCounts(): void {
  forgetChunkCounts();
  memos.clear();
}

/** A huge body: all of it fresh, in fixed 2 K ranges, bounded without reading it. */
function hugeBody(text: string): BodyMeasure {
  const fresh: Array<[number, number]> = [];
  for (let start = 0; start < text.length; start += 2048) fresh.push([start, Math.min(text.length, start + 2048)]);
  return { text, known: 0, fresh, freshChars: text.length, freshBound: 3 * text.length + fresh.length };
}

function remember(memoKey: string, memo: BodyMemo): void {
  memos.delete(memoKey);
  if (memos.size >= MEMO_KEYS) memos.delete(memos.keys().next().value as string);
  memos.set(memoKey, memo);
}
