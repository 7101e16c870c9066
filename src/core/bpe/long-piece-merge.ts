/**
 * tiktoken's merge rule for long pieces in O(n log n): the same merges in the same order as the
 * quadratic scan (lowest rank first, leftmost on ties), without a scan per merge.
 *
 * Parts are a linked list over byte offsets. Pairs wait in one bucket per rank, and a small heap
 * holds the ranks that have a bucket. The lowest bucket is sorted by offset and merged left to
 * right: a merge makes pairs longer than the one it merged, so never another pair of the same
 * rank, and the leftmost rule holds within the bucket. A merge that makes a pair of a lower rank
 * puts the rest of the bucket back, so that pair goes first, as in tiktoken. An entry whose pair
 * has changed since it was filed is skipped: a rank names one byte string, so a changed pair
 * never carries its old rank.
 *
 * 1 MB of one repeated letter is one regex piece; the scan took minutes on it.
 */
import type { RankIndex } from './rank-index.js';

const MEMO_BITS = 16;
const MEMO_SIZE = 1 << MEMO_BITS;

export class LongPieceMerge {
  private next = new Int32Array(0);
  private prev = new Int32Array(0);
  private pairRanks = new Int32Array(0);
  /** Token id of the part starting at each offset (every part is a token). */
  private partIds = new Int32Array(0);
  /**
   * (left id, right id) → rank of their concatenation, a direct-mapped cache: a pair's bytes
   * are its two tokens' bytes, so repeated text (a run of one letter, a repeated phrase) looks
   * each pair up once instead of hashing its bytes every time.
   */
  private readonly memoLeft = new Int32Array(MEMO_SIZE).fill(-1);
  private readonly memoRight = new Int32Array(MEMO_SIZE);
  private readonly memoRank = new Int32Array(MEMO_SIZE);
  /**
   * Offsets filed per rank since the rank's bucket was last taken: one linked list per rank
   * (newest first) in shared typed arrays — no array object per rank, nothing for the collector.
   */
  private readonly bucketHead: Int32Array;
  private readonly bucketSize: Int32Array;
  private entryOffset = new Int32Array(1024);
  private entryNext = new Int32Array(1024);
  private entries = 0;
  /** The sorted rest of a bucket a lower rank interrupted. */
  private readonly waiting = new Map<number, Int32Array>();
  private readonly ranks = new RankHeap();

  constructor(
    private readonly index: RankIndex,
    tokenCount: number,
  ) {
    this.bucketHead = new Int32Array(tokenCount).fill(-1);
    this.bucketSize = new Int32Array(tokenCount);
  }

  /** Merges bytes[0..length) as tiktoken does: pushes the ids to `out` when given, returns their number. */
  merge(bytes: Uint8Array, length: number, out: number[] | undefined): number {
    this.reserve(length);
    this.entries = 0;
    const { next, prev, pairRanks, partIds, index } = this;
    // Byte-level: every single byte is a token.
    for (let i = 0; i < length; i += 1) partIds[i] = index.get(bytes, i, i + 1);
    for (let i = 0; i < length; i += 1) {
      next[i] = i + 1;
      prev[i] = i - 1;
      pairRanks[i] = i + 2 <= length ? this.file(i, this.pairRank(bytes, i, i + 1, i + 2)) : -1;
    }
    while (this.ranks.size > 0) {
      const rank = this.ranks.pop();
      const offsets = this.take(rank);
      for (let k = 0; k < offsets.length; k += 1) {
        const at = offsets[k] as number;
        if (pairRanks[at] !== rank) continue; // stale: the pair at `at` has changed or gone
        // Part `at` swallows the part after it; the pairs on both sides change.
        const gone = next[at] as number;
        const after = next[gone] as number;
        pairRanks[gone] = -1;
        partIds[at] = rank;
        next[at] = after;
        if (after < length) prev[after] = at;
        // Left first, so offsets filed within one bucket's pass stay in ascending order.
        const before = prev[at] as number;
        const left = before >= 0 ? this.file(before, this.pairRank(bytes, before, at, after)) : -1;
        if (before >= 0) pairRanks[before] = left;
        const right = after < length ? this.file(at, this.pairRank(bytes, at, after, next[after] as number)) : -1;
        pairRanks[at] = right;
        if ((right >= 0 && right < rank) || (left >= 0 && left < rank)) {
          // A lower rank appeared: it merges first; the rest of this bucket waits.
          if (k + 1 < offsets.length) {
            this.waiting.set(rank, offsets.subarray(k + 1));
            this.ranks.push(rank);
          }
          break;
        }
      }
    }
    let count = 0;
    for (let at = 0; at < length; at = next[at] as number) {
      out?.push(partIds[at] as number);
      count += 1;
    }
    return count;
  }

  /** Rank of bytes[start..end), the parts at `start` and `middle` joined (−1: not a token). */
  private pairRank(bytes: Uint8Array, start: number, middle: number, end: number): number {
    const left = this.partIds[start] as number;
    const right = this.partIds[middle] as number;
    const slot = (Math.imul(left, 0x9e3779b1) ^ Math.imul(right, 0x85ebca6b)) >>> (32 - MEMO_BITS);
    if (this.memoLeft[slot] === left && this.memoRight[slot] === right) return this.memoRank[slot] as number;
    const rank = this.index.get(bytes, start, end);
    this.memoLeft[slot] = left;
    this.memoRight[slot] = right;
    this.memoRank[slot] = rank;
    return rank;
  }

  /** Files the pair at `offset` under its rank; returns the rank (−1: not a token, not filed). */
  private file(offset: number, rank: number): number {
    if (rank < 0) return -1;
    if (this.entries === this.entryOffset.length) {
      const offsets = new Int32Array(this.entries * 2);
      offsets.set(this.entryOffset);
      this.entryOffset = offsets;
      const nexts = new Int32Array(this.entries * 2);
      nexts.set(this.entryNext);
      this.entryNext = nexts;
    }
    const head = this.bucketHead[rank] as number;
    if (head < 0) this.ranks.push(rank);
    const entry = this.entries++;
    this.entryOffset[entry] = offset;
    this.entryNext[entry] = head;
    this.bucketHead[rank] = entry;
    this.bucketSize[rank] = (head < 0 ? 0 : (this.bucketSize[rank] as number)) + 1;
    return rank;
  }

  /** The offsets of a rank's pairs, ascending (empty when the rank was already taken). */
  private take(rank: number): Int32Array {
    const head = this.bucketHead[rank] as number;
    const waiting = this.waiting.get(rank);
    this.bucketHead[rank] = -1;
    if (waiting !== undefined) this.waiting.delete(rank);
    if (head < 0) return waiting ?? EMPTY;
    const filed = this.bucketSize[rank] as number;
    const offsets = new Int32Array(filed + (waiting?.length ?? 0));
    // The list is newest first: written back to front, the offsets come out in filing order.
    let at = filed;
    for (let entry = head; entry >= 0; entry = this.entryNext[entry] as number) offsets[--at] = this.entryOffset[entry] as number;
    if (waiting !== undefined) offsets.set(waiting, filed);
    return ascending(offsets) ? offsets : offsets.sort();
  }

  private reserve(length: number): void {
    if (this.next.length >= length + 1) return;
    this.next = new Int32Array(length + 1);
    this.prev = new Int32Array(length + 1);
    this.pairRanks = new Int32Array(length + 1);
    this.partIds = new Int32Array(length + 1);
  }
}

const EMPTY = new Int32Array(0);

function ascending(offsets: Int32Array): boolean {
  for (let i = 1; i < offsets.length; i += 1) if ((offsets[i] as number) < (offsets[i - 1] as number)) return false;
  return true;
}

/** A binary min-heap of ranks. */
class RankHeap {
  private items: number[] = [];

  get size(): number {
    return this.items.length;
  }

  push(rank: number): void {
    const items = this.items;
    let at = items.length;
    items.push(rank);
    while (at > 0) {
      const parent = (at - 1) >> 1;
      const above = items[parent] as number;
      if (above <= rank) break;
      items[at] = above;
      at = parent;
    }
    items[at] = rank;
  }

  pop(): number {
    const items = this.items;
    const top = items[0] as number;
    const last = items.pop() as number;
    if (items.length === 0) return top;
    let at = 0;
    for (;;) {
      let child = 2 * at + 1;
      if (child >= items.length) break;
      if (child + 1 < items.length && (items[child + 1] as number) < (items[child] as number)) child += 1;
      if ((items[child] as number) >= last) break;
      items[at] = items[child] as number;
      at = child;
    }
    items[at] = last;
    return top;
  }
}
