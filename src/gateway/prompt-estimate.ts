/**
 * Our o200k count of a body's billable strings (src/estimate/billable-content.ts), the
 * gateway's side of the shared estimator, without joining or re-serializing them.
 *
 * Agents resend the same system prompt, tool schemas and history on every turn (Claude Code:
 * a ~48 KB prefix), so a key's last list of strings is remembered with each string's count:
 * the strings unchanged at the start and at the end are found by string comparison (memcmp:
 * microseconds for 60 KB) with their counts. Every other string is looked up in the
 * chunk-count cache (chunk-counts.ts): a short one whole, a long one by its content-defined
 * chunks, so a message's count is found whatever came before it. Each string or chunk counts
 * one token more than its text (a cut can split a token), which also covers the separator a
 * provider renders between two strings. When the key can afford it, new text is not even
 * counted before the call goes upstream: it is reserved at its UTF-8 byte count (`freshBound`),
 * and counted after (admit-call.ts).
 */
import { countTokens } from '../core/tokens.js';
import { sampledChars, sampledExtraBytes } from '../estimate/body-shape.js';
import { cachedCount, chunkEnds, countRanges, forgetChunkCounts, utf8Length } from './chunk-counts.js';

/** Strings up to this many characters are looked up (and counted) whole. */
const SMALL_PART = 256;
/** A body of at most this many characters is counted at once (uncached: cheaper than a lookup per piece), never reserved at a bound. */
const SMALL_BODY = 2048;
/** New text up to this many characters is counted in one go; more is counted in slices between turns of the event loop. */
const SYNC_CHARS = 8192;
/** Bodies with more characters than this are not chunked or remembered (one scan would hold the event loop for tens of ms). */
const HUGE_CHARS = 1 << 20;
/** Keys whose last strings are remembered (oldest dropped first). */
const MEMO_KEYS = 256;

export interface PartsMeasure {
  /** Tokens of the strings and chunks the cache knew (o200k, +1 each). */
  known: number;
  /** Strings and chunks not seen before. */
  fresh: string[];
  freshChars: number;
  /** An upper bound on the fresh text's tokens that needs no tokenizer: its UTF-8 bytes, +1 a piece (a byte-level BPE never makes more tokens than bytes). */
  freshBound: number;
  /** What the strings add to the body's shape (body-shape.ts `ShapeTotals`): found with each string's count, an unchanged string's from the last body. */
  chars: number;
  sampled: number;
  extraBytes: number;
}

interface PartsMemo {
  parts: readonly string[];
  /** Count per string; −1: not known when the body came. */
  counts: number[];
  /** `sampledExtraBytes` per string. */
  extra: Int32Array;
}

const memos = new Map<string, PartsMemo>();

/** Finds each string's count without tokenizing: from the last strings of `memoKey` where unchanged, else from the chunk cache. */
export function measureParts(parts: readonly string[], memoKey?: string): PartsMeasure {
  let chars = 0;
  let sampled = 0;
  for (const part of parts) {
    chars += part.length;
    sampled += sampledChars(part.length);
  }
  const measure: PartsMeasure = { known: 0, fresh: [], freshChars: 0, freshBound: 0, chars, sampled, extraBytes: 0 };
  if (chars > HUGE_CHARS || chars <= SMALL_BODY) {
    for (const part of parts) measure.extraBytes += sampledExtraBytes(part);
    if (chars > HUGE_CHARS) return hugeParts(parts, measure);
    for (const part of parts) measure.known += countTokens(part) + 1;
    return measure;
  }
  const previous = memoKey === undefined ? undefined : memos.get(memoKey);
  const counts = new Array<number>(parts.length).fill(-1);
  const extra = new Int32Array(parts.length).fill(-1);
  if (previous !== undefined) {
    // Strings equal to the last body's (compared whole: memcmp), at its start and at its end.
    const before = previous.parts;
    let start = 0;
    for (; start < parts.length && start < before.length && parts[start] === before[start]; start += 1) {
      counts[start] = previous.counts[start] as number;
      extra[start] = previous.extra[start] as number;
    }
    for (let j = parts.length - 1, k = before.length - 1; j >= start && k >= start && parts[j] === before[k]; j -= 1, k -= 1) {
      counts[j] = previous.counts[k] as number;
      extra[j] = previous.extra[k] as number;
    }
  }
  const ends: number[] = [];
  for (let i = 0; i < parts.length; i += 1) {
    if ((extra[i] as number) < 0) extra[i] = sampledExtraBytes(parts[i] as string);
    measure.extraBytes += extra[i] as number;
    if ((counts[i] as number) >= 0) {
      measure.known += counts[i] as number;
      continue;
    }
    const part = parts[i] as string;
    if (part.length <= SMALL_PART) {
      const count = cachedCount(part);
      if (count === undefined) addFresh(measure, part);
      else measure.known += counts[i] = count;
      continue;
    }
    ends.length = 0;
    chunkEnds(part, 0, part.length, ends);
    let total = 0;
    let complete = true;
    for (let k = 0; k < ends.length; k += 1) {
      const chunk = part.slice(k === 0 ? 0 : (ends[k - 1] as number), ends[k] as number);
      const count = cachedCount(chunk);
      if (count === undefined) {
        complete = false;
        addFresh(measure, chunk);
      } else total += count;
    }
    measure.known += total;
    if (complete) counts[i] = total;
  }
  if (memoKey !== undefined) remember(memoKey, { parts, counts, extra });
  return measure;
}

/** The exact count of what `measureParts` left fresh (and remembers it): in one go when small, else in slices between turns of the event loop. */
export function countFreshParts(measure: PartsMeasure): number | Promise<number> {
  if (measure.fresh.length === 0) return measure.known;
  if (measure.freshChars <= SYNC_CHARS) return measure.known + countNow(measure.fresh, 0, measure.fresh.length);
  return countInSlices(measure);
}

/** o200k tokens of one text (an over-count by one per chunk), remembered under `memoKey`; a promise when new text had to be counted in slices. */
export function countBodyTokens(text: string, memoKey?: string): number | Promise<number> {
  return countFreshParts(measureParts([text], memoKey));
}

/** Drops every remembered count and list of strings (tests and benchmarks measure a cold start with it). */
export function forgetBodyCounts(): void {
  forgetChunkCounts();
  memos.clear();
}

function addFresh(measure: PartsMeasure, piece: string): void {
  measure.fresh.push(piece);
  measure.freshChars += piece.length;
  measure.freshBound += utf8Length(piece, 0, piece.length) + 1;
}

function countNow(pieces: readonly string[], from: number, to: number): number {
  let total = 0;
  // Each piece is at most SMALL_PART or one chunk (≤ 2 K characters): countRanges counts it at once and remembers it.
  for (let i = from; i < to; i += 1) total += countRanges(pieces[i] as string, [[0, (pieces[i] as string).length]], (pieces[i] as string).length) as number;
  return total;
}

async function countInSlices(measure: PartsMeasure): Promise<number> {
  let total = measure.known;
  let from = 0;
  let chars = 0;
  for (let i = 0; i < measure.fresh.length; i += 1) {
    chars += (measure.fresh[i] as string).length;
    if (chars < 2048) continue;
    total += countNow(measure.fresh, from, i + 1);
    from = i + 1;
    chars = 0;
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
  return total + countNow(measure.fresh, from, measure.fresh.length);
}

/** A huge body: all of it fresh, in fixed 2 K pieces, bounded at 3 bytes a UTF-16 unit without reading it. */
function hugeParts(parts: readonly string[], measure: PartsMeasure): PartsMeasure {
  for (const part of parts) {
    for (let start = 0; start < part.length || start === 0; start += 2048) {
      const piece = part.slice(start, start + 2048);
      measure.fresh.push(piece);
      measure.freshChars += piece.length;
      measure.freshBound += 3 * piece.length + 1;
      if (part.length === 0) break;
    }
  }
  return measure;
}

function remember(memoKey: string, memo: PartsMemo): void {
  memos.delete(memoKey);
  if (memos.size >= MEMO_KEYS) memos.delete(memos.keys().next().value as string);
  memos.set(memoKey, memo);
}
