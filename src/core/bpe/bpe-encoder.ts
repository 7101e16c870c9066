/**
 * Byte-level BPE over a TokenTable — the algorithm of OpenAI's tiktoken (`_byte_pair_merge` in
 * tiktoken/src/lib.rs): split text with the encoding's regex, look each piece up whole, else
 * merge its bytes pair by pair, lowest rank first (leftmost on ties). Same ranks and regex give
 * the same token ids as tiktoken; src/core/bpe/bpe-encoder.test.ts checks that against
 * tiktoken's published test plans and against gpt-tokenizer on real datasets.
 *
 * Special-token strings such as `<|endoftext|>` are plain text here, as chat APIs treat them
 * in message content (gpt-tokenizer's default would throw on them).
 */
import { LongPieceMerge } from './long-piece-merge.js';
import { RankIndex } from './rank-index.js';
import type { TokenTable } from './token-table.js';

export interface BpeEncoder {
  encode(text: string): number[];
  count(text: string): number;
  /** Text of the ids; a multi-byte character cut by the last id is left out, not mangled. */
  decode(ids: readonly number[]): string;
}

const NO_RANK = 0x7fffffff;
/** Multi-token pieces remembered (piece → ids); cleared when full, which is rare and cheap. */
const CACHE_LIMIT = 8192;
/** Pieces longer than this are not remembered (a 1 MB run would pin 1 MB per entry). */
const CACHE_PIECE_CHARS = 256;
/** Pieces of more bytes than this merge by rank buckets (O(n log n)); shorter ones scan, which is faster there. */
const LONG_PIECE_BYTES = 128;

/**
 * End (exclusive) of the piece that `split` would match at `at`, or a negative number when it cannot tell
 * (the regex then decides): a cheaper exact answer for the common case, as o200k-ascii-pieces.ts gives.
 */
export type PieceEnd = (text: string, at: number) => number;

export function createBpeEncoder(table: TokenTable, split: RegExp, pieceEnd?: PieceEnd): BpeEncoder {
  const index = new RankIndex(table);
  const pattern = new RegExp(split.source, split.flags.includes('g') ? split.flags : `${split.flags}g`);
  // Encoding and counting walk the pieces with `pieceEnd` where it can tell, else a sticky copy
  // and `test`: neither builds a match array or a substring per piece. A gateway counts every
  // prompt on a stream's path to its first byte, and those small allocations were most of what
  // it gave the garbage collector.
  const sticky = new RegExp(split.source, `${split.flags.replace('g', '')}y`);
  const cache = new Map<string, number[]>();
  // Counting keeps its own map of numbers: no ids array per piece for the collector.
  const counts = new Map<string, number>();
  const longMerge = new LongPieceMerge(index, table.count);
  const textEncoder = new TextEncoder();
  // ignoreBOM: a leading U+FEFF is content (token 5574 in o200k), not a marker to drop.
  const textDecoder = new TextDecoder('utf-8', { ignoreBOM: true });
  let scratch = new Uint8Array(256);
  let starts = new Int32Array(257);
  let ranks = new Int32Array(257);
  /** Start of the piece nextPiece last found (it can lie past `at` where the pattern leaves a gap). */
  let pieceStart = 0;

  /** End of the first piece at or after `at`, its start left in pieceStart; -1 when there is none. encode and count both walk with it. */
  function nextPiece(text: string, at: number): number {
    if (pieceEnd !== undefined) {
      const end = pieceEnd(text, at);
      if (end > at) {
        pieceStart = at;
        return end;
      }
    }
    sticky.lastIndex = at;
    if (sticky.test(text) && sticky.lastIndex > at) {
      pieceStart = at;
      return sticky.lastIndex;
    }
    // No piece starts here: the global pattern skips to where the next one does, as an exec loop would.
    pattern.lastIndex = at;
    const next = pattern.exec(text);
    if (next === null || next[0].length === 0) return -1;
    pieceStart = next.index;
    return next.index + next[0].length;
  }

  /** Writes the UTF-8 of text[start..end) into `scratch`; returns its length. ASCII, the common case, is copied without cutting the piece out. */
  function bytesOfRange(text: string, start: number, end: number): number {
    const length = end - start;
    if (scratch.length < length * 3) scratch = new Uint8Array(length * 3);
    for (let i = 0; i < length; i += 1) {
      const code = text.charCodeAt(start + i);
      if (code >= 0x80) return textEncoder.encodeInto(text.slice(start, end), scratch).written;
      scratch[i] = code;
    }
    return length;
  }

  /** tiktoken's merge loop over scratch[0..length): the ids of the piece, pushed to `out` when given; returns their number. */
  function merge(length: number, out: number[] | undefined): number {
    if (length > LONG_PIECE_BYTES) return longMerge.merge(scratch, length, out);
    if (starts.length < length + 1) {
      starts = new Int32Array(length + 1);
      ranks = new Int32Array(length + 1);
    }
    let parts = length + 1;
    for (let i = 0; i < parts; i += 1) {
      starts[i] = i;
      ranks[i] = i + 2 <= length ? rankOr(index.get(scratch, i, i + 2)) : NO_RANK;
    }
    for (;;) {
      let min = NO_RANK;
      let at = -1;
      for (let i = 0; i < parts - 1; i += 1) {
        const rank = ranks[i] as number;
        if (rank < min) {
          min = rank;
          at = i;
        }
      }
      if (at < 0) break;
      // Ranks of the pairs around the merge, computed as if part at+1 were already gone.
      if (at > 0) ranks[at - 1] = pairRank(at - 1, parts);
      ranks[at] = pairRank(at, parts);
      starts.copyWithin(at + 1, at + 2, parts);
      ranks.copyWithin(at + 1, at + 2, parts);
      parts -= 1;
    }
    if (out !== undefined) for (let i = 0; i < parts - 1; i += 1) out.push(index.get(scratch, starts[i] as number, starts[i + 1] as number));
    return parts - 1;
  }

  function pairRank(i: number, parts: number): number {
    return i + 3 < parts ? rankOr(index.get(scratch, starts[i] as number, starts[i + 3] as number)) : NO_RANK;
  }

  function encodeRange(text: string, start: number, end: number, out: number[]): void {
    const length = bytesOfRange(text, start, end);
    const whole = index.get(scratch, 0, length);
    if (whole >= 0) {
      out.push(whole);
      return;
    }
    const piece = text.slice(start, end);
    const cached = cache.get(piece);
    if (cached !== undefined) {
      for (const id of cached) out.push(id);
      return;
    }
    const ids: number[] = [];
    merge(length, ids);
    remember(piece, ids);
    for (const id of ids) out.push(id);
  }

  function countRange(text: string, start: number, end: number): number {
    const length = bytesOfRange(text, start, end);
    if (index.get(scratch, 0, length) >= 0) return 1;
    if (end - start > CACHE_PIECE_CHARS) return merge(length, undefined);
    const piece = text.slice(start, end);
    const cached = counts.get(piece);
    if (cached !== undefined) return cached;
    const count = merge(length, undefined);
    if (counts.size >= CACHE_LIMIT) counts.clear();
    counts.set(piece, count);
    return count;
  }

  function remember(piece: string, ids: number[]): void {
    if (piece.length > CACHE_PIECE_CHARS) return;
    if (cache.size >= CACHE_LIMIT) cache.clear();
    cache.set(piece, ids);
  }

  return {
    encode(text) {
      const out: number[] = [];
      for (let at = 0, end = 0; at < text.length && (end = nextPiece(text, at)) >= 0; at = end) encodeRange(text, pieceStart, end, out);
      return out;
    },
    count(text) {
      let total = 0;
      for (let at = 0, end = 0; at < text.length && (end = nextPiece(text, at)) >= 0; at = end) total += countRange(text, pieceStart, end);
      return total;
    },
    decode(ids) {
      let size = 0;
      for (const id of ids) size += tokenLength(table, id);
      const out = new Uint8Array(size);
      let at = 0;
      for (const id of ids) {
        const start = table.offsets[id] as number;
        const end = table.offsets[id + 1] as number;
        out.set(table.bytes.subarray(start, end), at);
        at += end - start;
      }
      return textDecoder.decode(out.subarray(0, completeUtf8Length(out)));
    },
  };
}

function rankOr(rank: number): number {
  return rank < 0 ? NO_RANK : rank;
}

function tokenLength(table: TokenTable, id: number): number {
  if (!Number.isInteger(id) || id < 0 || id >= table.count) throw new Error(`token id ${id} is not in the vocabulary (0..${table.count - 1})`);
  return (table.offsets[id + 1] as number) - (table.offsets[id] as number);
}

/** Length of `bytes` without a trailing, incomplete UTF-8 sequence. */
function completeUtf8Length(bytes: Uint8Array): number {
  const end = bytes.length;
  // A sequence is at most 4 bytes: look back for its lead byte.
  for (let back = 1; back <= Math.min(4, end); back += 1) {
    const byte = bytes[end - back] as number;
    if ((byte & 0xc0) === 0x80) continue; // continuation byte
    const need = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
    return need > back ? end - back : end;
  }
  return end;
}
