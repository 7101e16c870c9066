/**
 * Byte string → rank over a TokenTable: open addressing with linear probing (load ≤ 0.5),
 * FNV-1a hashes, no per-token objects. A slot is two int32 side by side — the rank with 13
 * more bits of the hash, and where the token's bytes start with their length — so a probe
 * reads one cache line: a slot of another token is passed over on its hash bits or its length
 * without touching the token table, and a hit reads only the token's bytes (compared whole:
 * equal hashes never make a match). Each lookup of a gateway's new text comes right after a
 * 70 KB body went through the caches; a probe that touched the rank's offsets and bytes was
 * two more misses. 8 bytes a slot (4 MB for o200k).
 */
import type { TokenTable } from './token-table.js';

/** Ranks and hash bits share the first int32: ranks below 2^18, the hash's top 13 bits above. */
const RANK_BITS = 18;
const RANK_MASK = (1 << RANK_BITS) - 1;
const TAG_SHIFT = 32 - 13;
/** Starts and lengths share the second: starts below 2^21, lengths below 2^11 above. */
const START_BITS = 21;
const START_MASK = (1 << START_BITS) - 1;
const MAX_LENGTH = (1 << (32 - START_BITS)) - 1;
const EMPTY = -1;

export class RankIndex {
  private readonly slots: Int32Array;
  private readonly mask: number;
  private readonly bytes: Uint8Array;

  constructor(table: TokenTable) {
    if (table.count > RANK_MASK || table.bytes.length > START_MASK) throw new Error(`rank index: a vocabulary of ${table.count} tokens and ${table.bytes.length} bytes does not fit (at most ${RANK_MASK} and ${START_MASK})`);
    let size = 1024;
    while (size < table.count * 2) size *= 2;
    this.slots = new Int32Array(size * 2).fill(EMPTY);
    this.mask = size - 1;
    this.bytes = table.bytes;
    for (let rank = 0; rank < table.count; rank += 1) {
      const start = table.offsets[rank] as number;
      const length = (table.offsets[rank + 1] as number) - start;
      if (length > MAX_LENGTH) throw new Error(`rank index: token ${rank} is ${length} bytes long (at most ${MAX_LENGTH})`);
      const hash = fnv1a(this.bytes, start, start + length);
      let slot = hash & this.mask;
      while (this.slots[2 * slot] !== EMPTY) slot = (slot + 1) & this.mask;
      this.slots[2 * slot] = rank | ((hash >>> TAG_SHIFT) << RANK_BITS);
      this.slots[2 * slot + 1] = start | (length << START_BITS);
    }
  }

  /** The rank of `buf[start..end)`, or −1 when it is not a token. */
  get(buf: Uint8Array, start: number, end: number): number {
    const length = end - start;
    const hash = fnv1a(buf, start, end);
    const tag = hash >>> TAG_SHIFT;
    for (let slot = hash & this.mask; ; slot = (slot + 1) & this.mask) {
      const entry = this.slots[2 * slot] as number;
      if (entry === EMPTY) return -1;
      if (entry >>> RANK_BITS !== tag) continue;
      const where = this.slots[2 * slot + 1] as number;
      if (where >>> START_BITS === length && sameBytes(this.bytes, where & START_MASK, buf, start, length)) return entry & RANK_MASK;
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
