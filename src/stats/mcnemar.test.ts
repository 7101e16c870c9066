import { describe, expect, it } from 'vitest';
import { mcnemarExactP } from './mcnemar.js';

/** Exact two-sided p by BigInt: min(1, 2·Σ_{i ≤ min(b,c)} C(b+c, i) / 2^(b+c)). */
function exactP(b: number, c: number): number {
  const n = b + c;
  let sum = 0n;
  let coefficient = 1n;
  for (let i = 0; i <= Math.min(b, c); i++) {
    if (i > 0) coefficient = (coefficient * BigInt(n - i + 1)) / BigInt(i);
    sum += coefficient;
  }
  const doubled = 2n * sum;
  const total = 1n << BigInt(n);
  if (doubled >= total) return 1;
  // Scale to keep 64 significant bits of the quotient before converting.
  const shift = BigInt(n - doubled.toString(2).length + 1 + 64);
  return Number((doubled << shift) / total) / 2 ** Number(shift);
}

describe('mcnemarExactP', () => {
  it('is exactly 1 with no discordant pairs or balanced ones', () => {
    expect(mcnemarExactP(0, 0)).toBe(1);
    expect(mcnemarExactP(7, 7)).toBe(1);
    expect(mcnemarExactP(0, 1)).toBe(1);
  });

  it('matches hand values: (0, 5) → 2/32, (1, 9) → 2·11/1024', () => {
    expect(mcnemarExactP(0, 5)).toBeCloseTo(0.0625, 15);
    expect(mcnemarExactP(9, 1)).toBeCloseTo(22 / 1024, 15);
  });

  it('matches BigInt exact values for every (b, c) with b + c ≤ 60', () => {
    let worst = 0;
    for (let b = 0; b <= 60; b++) {
      for (let c = 0; b + c <= 60; c++) {
        const exact = exactP(b, c);
        worst = Math.max(worst, Math.abs(mcnemarExactP(b, c) - exact) / exact);
      }
    }
    expect(worst).toBeLessThan(1e-13);
  });

  // Reference: the same tail summed with mpmath at 40 digits (scipy's binom.cdf agrees to
  // ~1e-13 and returns 0 for the 1.7e-602 case, which also underflows here).
  it.each([
    [499000, 501000, 0.045608299865382086],
    [499500, 500500, 0.31779469136330554],
    [250000, 251500, 0.034282375884781268],
    [12000, 12500, 0.0014321425048026572],
    [4900, 5100, 0.046585527704947389],
    [100, 160, 0.00023894190306814022],
    [10, 30, 0.0022214337732293643],
    [1, 1000, 9.3513014574022532e-299],
  ])('large counts b=%d c=%d match mpmath', (b, c, expected) => {
    expect(Math.abs(mcnemarExactP(b, c) - expected)).toBeLessThan(1e-12 * expected);
    expect(mcnemarExactP(c, b)).toBe(mcnemarExactP(b, c));
  });

  it('underflows to 0 only when the true p is below the smallest double', () => {
    expect(mcnemarExactP(0, 2000)).toBe(0);
    expect(mcnemarExactP(500_000, 500_000)).toBe(1);
  });

  it('rejects invalid counts', () => {
    expect(() => mcnemarExactP(-1, 2)).toThrow(RangeError);
    expect(() => mcnemarExactP(1.5, 2)).toThrow(RangeError);
    expect(() => mcnemarExactP(1, Number.NaN)).toThrow(RangeError);
  });
});
