/**
 * Byte string → rank over a TokenTable: open addressing with linear probing in one Int32Array
 * (load ≤ 0.5), FNV-1a hashes. No per-token objects, so the index costs 4 bytes a slot.
 */
import type { TokenTable } from './token-table.js';

export class RankIndex {
  private readonly slots: Int32Array;
  private readonly mask: number;
  private readonly bytes: Uint8Array;
  private readonly offsets: Uint32Array;

  constructor(table: TokenTable) {
    let size = 1024;
    while (size < table.count * 2) size *= 2;
    this.slots = new Int32Array(size).fill(-1);
    this.mask = size - 1;
    this.bytes = table.bytes;
    this.offsets = table.offsets;
    for (let rank = 0; rank < table.count; rank += 1) {
      const start = this.offsets[rank] as number;
      const end = this.offsets[rank + 1] as number;
      let slot = fnv1a(this.bytes, start, end) & this.mask;
      while (this.slots[slot] !== -1) slot = (slot + 1) & this.mask;
      this.slots[slot] = rank;
    }
  }

  /** The rank of `buf[start..end)`, or −1 when it is not a token. */
  get(buf: Uint8Array, start: number, end: number): number {
    const length = end - start;
    let slot = fnv1a(buf, start, end) & this.mask;
    for (;;) {
      const rank = this.slots[slot] as number;
      if (rank === -1) return -1;
      const tokenStart = this.offsets[rank] as number;
      if ((this.offsets[rank + 1] as number) - tokenStart === length && sameBytes(this.bytes, tokenStart, buf, start, length)) return rank;
      slot = (slot + 1) & this.mask;
    }
  }
}

function fnv1a(buf: Uint8Array, start: number, end: number): number {
  let hash = 0x811c9dc5;
  for (let i = start; i < end; i += 1) hash = Math.imul(hash ^ (buf[i] as number), 0x01000193);
  return hash >>> 0;
}

function sameBytes(a: Uint8Array, aStart: number, b: Uint8Array, bStart: number, length: number): boolean {
  for (let i = 0; i < length; i += 1) if (a[aStart + i] !== b[bStart + i]) return false;
  return true;
}
