/**
 * Seeded randomness for the simulator. FNV-1a hashes the inputs that define a draw, a
 * murmur3 finalizer spreads FNV's weak low bits, and mulberry32 turns a 32-bit state into
 * uniforms. Both are tiny, public-domain and fast enough to run per request.
 */

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

/** FNV-1a over UTF-16 code units, continuing from `state` so parts can be chained. */
export function fnv1a(text: string, state: number = FNV_OFFSET): number {
  let hash = state >>> 0;
  for (let i = 0; i < text.length; i += 1) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, FNV_PRIME);
  }
  return hash >>> 0;
}

/** murmur3's fmix32: every input bit affects every output bit. */
export function mix32(value: number): number {
  let h = value >>> 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/**
 * One 32-bit hash of several parts. A separator that cannot occur in numbers keeps
 * `('ab', 'c')` and `('a', 'bc')` apart.
 */
export function hashParts(...parts: ReadonlyArray<string | number>): number {
  let state = FNV_OFFSET;
  for (const part of parts) {
    state = fnv1a(typeof part === 'number' ? `#${part}` : part, state);
    state = fnv1a('\u241f', state);
  }
  return mix32(state);
}

/** mulberry32: a uniform generator in [0, 1) from a 32-bit seed. */
export function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A single uniform in [0, 1) that depends only on `parts`. */
export function uniformFrom(...parts: ReadonlyArray<string | number>): number {
  return mulberry32(hashParts(...parts))();
}

/** Integer in [0, size) from a uniform; size must be ≥ 1. */
export function pickIndex(uniform: number, size: number): number {
  return Math.min(size - 1, Math.floor(uniform * size));
}
