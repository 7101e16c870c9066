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

export class LongPieceMerge {
  private next = new Int32Array(0);
  private prev = new Int32Array(0);
  private pairRanks = new Int32Array(0);
  /** Offsets filed per rank since the rank's bucket was last taken (unsorted). */
  private readonly buckets: Array<number[] | undefined> = [];
  /** The sorted rest of a bucket a lower rank interrupted. */
  private readonly waiting = new Map<number, Int32Array>();
  private readonly ranks = new RankHeap();

  constructor(private readonly index: RankIndex) {}

  /** Merges bytes[0..length) as tiktoken does: pushes the ids to `out` when given, returns their number. */
  merge(bytes: Uint8Array, length: number, out: number[] | undefined): number {
    this.reserve(length);
    const { next, prev, pairRanks, index } = this;
    for (let i = 0; i < length; i += 1) {
      next[i] = i + 1;
      prev[i] = i - 1;
      pairRanks[i] = i + 2 <= length ? this.file(i, index.get(bytes, i, i + 2)) : -1;
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
        next[at] = after;
        if (after < length) prev[after] = at;
        // Left first, so offsets filed within one bucket's pass stay in ascending order.
        const before = prev[at] as number;
        const left = before >= 0 ? this.file(before, index.get(bytes, before, after)) : -1;
        if (before >= 0) pairRanks[before] = left;
        const right = after < length ? this.file(at, index.get(bytes, at, next[after] as number)) : -1;
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
      out?.push(index.get(bytes, at, next[at] as number));
      count += 1;
    }
    return count;
  }

  /** Files the pair at `offset` under its rank; returns the rank (−1: not a token, not filed). */
  private file(offset: number, rank: number): number {
    if (rank < 0) return -1;
    const bucket = this.buckets[rank];
    if (bucket !== undefined) bucket.push(offset);
    else {
      this.buckets[rank] = [offset];
      this.ranks.push(rank);
    }
    return rank;
  }

  /** The offsets of a rank's pairs, ascending (empty when the rank was already taken). */
  private take(rank: number): Int32Array {
    const filed = this.buckets[rank];
    const waiting = this.waiting.get(rank);
    this.buckets[rank] = undefined;
    this.waiting.delete(rank);
    if (filed === undefined) return waiting ?? EMPTY;
    const offsets = new Int32Array(filed.length + (waiting?.length ?? 0));
    offsets.set(filed);
    if (waiting !== undefined) offsets.set(waiting, filed.length);
    return ascending(offsets) ? offsets : offsets.sort();
  }

  private reserve(length: number): void {
    if (this.next.length >= length + 1) return;
    this.next = new Int32Array(length + 1);
    this.prev = new Int32Array(length + 1);
    this.pairRanks = new Int32Array(length + 1);
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
