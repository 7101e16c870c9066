/**
 * Seeded pseudo-random numbers: xoshiro128** 1.1 (Blackman & Vigna 2018, "Scrambled
 * Linear Pseudorandom Number Generators", https://prng.di.unimi.it/xoshiro128starstar.c)
 * with its 128-bit state filled by splitmix32 (the 32-bit SplitMix variant: a Weyl
 * sequence with step 0x9e3779b9 finalised by MurmurHash3's fmix32).
 *
 * Why this generator: the bootstrap draws ~20M integers per analysis, and xoshiro128**
 * needs only 32-bit xor/shift/rotate/multiply, which JavaScript does natively with
 * `Math.imul` and `>>> 0` — no BigInt, no 64-bit emulation. Integer math is exact, so the
 * same seed gives the same sequence on every platform and engine.
 */

/** A seeded stream of random numbers. Not cryptographically secure. */
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
  let [s0, s1, s2, s3] = state;
  if ((s0 | s1 | s2 | s3) === 0) throw new RangeError('xoshiro128** state must not be all zero');
  s0 |= 0;
  s1 |= 0;
  s2 |= 0;
  s3 |= 0;

  const nextUint32 = (): number => {
    const scrambled = Math.imul(s1, 5);
    const result = Math.imul((scrambled << 7) | (scrambled >>> 25), 9) >>> 0;
    const t = s1 << 9;
    s2 ^= s0;
    s3 ^= s1;
    s1 ^= s2;
    s0 ^= s3;
    s2 ^= t;
    s3 = (s3 << 11) | (s3 >>> 21);
    return result;
  };

  // Rejection threshold 2^32 mod n, cached because the bootstrap calls int(n) with the same n
  // millions of times and a modulo per call is measurable.
  let cachedBound = -1;
  let cachedThreshold = 0;

  const int = (maxExclusive: number): number => {
    if (maxExclusive !== cachedBound) {
      if (!Number.isInteger(maxExclusive) || maxExclusive < 1 || maxExclusive > TWO_POW_32) {
        throw new RangeError(`maxExclusive must be an integer in [1, 2^32], got ${maxExclusive}`);
      }
      cachedBound = maxExclusive;
      cachedThreshold = (TWO_POW_32 - maxExclusive) % maxExclusive;
    }
    if (maxExclusive <= MAX_EXACT_PRODUCT_BOUND) {
      // Lemire (2019), "Fast random integer generation in an interval", ACM TOMS 29(1): the
      // high 32 bits of x·n are uniform on [0, n) once products whose low 32 bits fall below
      // 2^32 mod n are rejected. x·n < 2^53 here, so the double product is exact, and the
      // hot path needs no integer division (a float modulo on uint32 values is slow in V8).
      for (;;) {
        const product = nextUint32() * maxExclusive;
        const high = Math.floor(product * INV_TWO_POW_32);
        if (product - high * TWO_POW_32 >= cachedThreshold) return high;
      }
    }
    // Larger n: reject the lowest (2^32 mod n) outputs, then reduce (OpenBSD's
    // arc4random_uniform); plain `x % n` would favour small results.
    for (;;) {
      const x = nextUint32();
      if (x >= cachedThreshold) return x % maxExclusive;
    }
  };

  const next = (): number => {
    // 27 + 26 bits, the same construction as the xoshiro authors' and Java's nextDouble.
    const high = nextUint32() >>> 5;
    const low = nextUint32() >>> 6;
    return (high * TWO_POW_26 + low) / TWO_POW_53;
  };

  let spare = 0;
  let hasSpare = false;
  const normal = (): number => {
    if (hasSpare) {
      hasSpare = false;
      return spare;
    }
    // Polar method (Marsaglia & Bray 1964): uses only sqrt (correctly rounded) and log,
    // avoiding the sin/cos of Box–Muller, so results depend on fewer libm functions.
    for (;;) {
      const u = 2 * next() - 1;
      const v = 2 * next() - 1;
      const r2 = u * u + v * v;
      if (r2 > 0 && r2 < 1) {
        const factor = Math.sqrt((-2 * Math.log(r2)) / r2);
        spare = v * factor;
        hasSpare = true;
        return u * factor;
      }
    }
  };

  return { nextUint32, next, int, normal };
}
