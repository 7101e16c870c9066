/**
 * Seeded pseudo-random numbers: xoshiro128** 1.1 (Blackman & Vigna 2018, "Scrambled
 * Linear Pseudorandom Number Generators", https://prng.di.unimi.it/xoshiro128starstar.c)
 * with its 128-bit state filled by splitmix32 (the 32-bit SplitMix variant: a Weyl
 * sequence with step 0x9e3779b9 finalised by MurmurHash3's fmix32).
 *
 * Why this generator: the bootstrap draws ~20M integers per analysis, and xoshiro128**
 * needs only 32-bit xor/shift/rotate/multiply, which JavaScript does natively with
 * `Math.imul` and `>>> 0` — no BigInt, no 64-bit emulation. Integer math is exact, so the
 * same seed gives the same nextUint32/int/next sequence on every platform and engine.
 * normal() also calls Math.log, which the JS spec leaves implementation-approximated: it is
 * reproducible across platforms on Node (V8 ships its own fdlibm port), not across engines.
 */

/**
 * A seeded stream of random numbers. Not cryptographically secure. Call methods on the
 * object (`rng.int(n)`); they are not bound.
 */
export interface Rng {
  /** Next raw 32-bit output, an integer in [0, 2^32). */
  nextUint32(): number;
  /** Uniform double in [0, 1) with 53 random bits (two 32-bit outputs). */
  next(): number;
  /** Uniform integer in [0, maxExclusive), without bias; 1 ≤ maxExclusive ≤ 2^32. */
  int(maxExclusive: number): number;
  /** Standard normal deviate (Marsaglia polar method). */
  normal(): number;
}

/** The four 32-bit words of xoshiro128** state; must not be all zero. */
export type Xoshiro128State = readonly [number, number, number, number];

const TWO_POW_32 = 4294967296;
const TWO_POW_26 = 67108864;
const TWO_POW_53 = 9007199254740992;
const INV_TWO_POW_32 = 1 / TWO_POW_32;
/** Largest n for which x·n (x < 2^32) is exact in a double. */
const MAX_EXACT_PRODUCT_BOUND = 2 ** 21;

/**
 * Creates a generator from a seed.
 *
 * Any safe integer is accepted. The low 32 bits seed splitmix32 directly; the high bits
 * (non-zero only for seeds ≥ 2^32 or negative seeds) are mixed in with a golden-ratio
 * multiply so that such seeds do not collide with small ones. For seeds in [0, 2^32) the
 * state is exactly four consecutive splitmix32 outputs, as in the reference C code.
 *
 * @throws RangeError if `seed` is not a safe integer.
 */
export function createRng(seed: number): Rng {
  if (!Number.isSafeInteger(seed)) {
    throw new RangeError(`seed must be a safe integer, got ${seed}`);
  }
  const low = seed >>> 0;
  const high = Math.floor(seed / TWO_POW_32) >>> 0;
  let weyl = (low ^ Math.imul(high, 0x9e3779b9)) >>> 0;
  const splitmix32 = (): number => {
    weyl = (weyl + 0x9e3779b9) >>> 0;
    let z = weyl;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
    return (z ^ (z >>> 16)) >>> 0;
  };
  // fmix32 is a bijection and the four Weyl inputs are distinct, so at most one word is
  // zero and the all-zero state (xoshiro's only fixed point) is impossible.
  return createRngFromState([splitmix32(), splitmix32(), splitmix32(), splitmix32()]);
}

/**
 * Creates a generator from an explicit xoshiro128** state — for reproducing published
 * test vectors and for callers that persist state.
 *
 * @throws RangeError if the state is all zero or a word is not a 32-bit unsigned integer.
 */
export function createRngFromState(state: Xoshiro128State): Rng {
  for (const word of state) {
    if (!Number.isInteger(word) || word < 0 || word >= TWO_POW_32) {
      throw new RangeError(`state words must be integers in [0, 2^32), got ${word}`);
    }
  }
  if ((state[0] | state[1] | state[2] | state[3]) === 0) {
    throw new RangeError('xoshiro128** state must not be all zero');
  }
  return new Xoshiro128StarStar(state);
}

/**
 * A class rather than a closure: V8 keeps the four state words as in-object int32 fields
 * and inlines the methods, which measured about twice as fast as closure-captured `let`s.
 * Methods read `this`, so call them on the generator (`rng.int(n)`), not detached.
 */
class Xoshiro128StarStar implements Rng {
  private s0: number;
  private s1: number;
  private s2: number;
  private s3: number;
  // Rejection threshold 2^32 mod n, cached because the bootstrap calls int(n) with the same
  // n millions of times and a modulo per call is measurable.
  private cachedBound = -1;
  private cachedThreshold = 0;
  private spare = 0;
  private hasSpare = false;

  constructor(state: Xoshiro128State) {
    this.s0 = state[0] | 0;
    this.s1 = state[1] | 0;
    this.s2 = state[2] | 0;
    this.s3 = state[3] | 0;
  }

  nextUint32(): number {
    const s1 = this.s1;
    const scrambled = Math.imul(s1, 5);
    const result = Math.imul((scrambled << 7) | (scrambled >>> 25), 9) >>> 0;
    const t = s1 << 9;
    const s2 = this.s2 ^ this.s0;
    const s3 = this.s3 ^ s1;
    this.s1 = s1 ^ s2;
    this.s0 ^= s3;
    this.s2 = s2 ^ t;
    this.s3 = (s3 << 11) | (s3 >>> 21);
    return result;
  }

  int(maxExclusive: number): number {
    if (maxExclusive !== this.cachedBound) {
      if (!Number.isInteger(maxExclusive) || maxExclusive < 1 || maxExclusive > TWO_POW_32) {
        throw new RangeError(`maxExclusive must be an integer in [1, 2^32], got ${maxExclusive}`);
      }
      this.cachedBound = maxExclusive;
      this.cachedThreshold = (TWO_POW_32 - maxExclusive) % maxExclusive;
    }
    const threshold = this.cachedThreshold;
    if (maxExclusive <= MAX_EXACT_PRODUCT_BOUND) {
      // Lemire (2019), "Fast random integer generation in an interval", ACM TOMS 29(1): the
      // high 32 bits of x·n are uniform on [0, n) once products whose low 32 bits fall below
      // 2^32 mod n are rejected. x·n < 2^53 here, so the double product is exact, and the
      // hot path needs no integer division (a float modulo on uint32 values is slow in V8).
      for (;;) {
        const product = this.nextUint32() * maxExclusive;
        const high = Math.floor(product * INV_TWO_POW_32);
        if (product - high * TWO_POW_32 >= threshold) return high;
      }
    }
    // Larger n: reject the lowest (2^32 mod n) outputs, then reduce (OpenBSD's
    // arc4random_uniform); plain `x % n` would favour small results.
    for (;;) {
      const x = this.nextUint32();
      if (x >= threshold) return x % maxExclusive;
    }
  }

  next(): number {
    // 27 + 26 bits, the same construction as the xoshiro authors' and Java's nextDouble.
    const high = this.nextUint32() >>> 5;
    const low = this.nextUint32() >>> 6;
    return (high * TWO_POW_26 + low) / TWO_POW_53;
  }

  normal(): number {
    if (this.hasSpare) {
      this.hasSpare = false;
      return this.spare;
    }
    // Polar method (Marsaglia & Bray 1964): uses only sqrt (correctly rounded) and log,
    // avoiding the sin/cos of Box–Muller, so results depend on fewer libm functions.
    for (;;) {
      const u = 2 * this.next() - 1;
      const v = 2 * this.next() - 1;
      const r2 = u * u + v * v;
      if (r2 > 0 && r2 < 1) {
        const factor = Math.sqrt((-2 * Math.log(r2)) / r2);
        this.spare = v * factor;
        this.hasSpare = true;
        return u * factor;
      }
    }
  }
}
