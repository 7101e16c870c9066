import { describe, expect, it } from 'vitest';
import { binomialCdf, binomialLogPmf } from './binomial.js';

/** numerator / denominator as a double, keeping ~64 significant bits before rounding. */
function ratioToNumber(numerator: bigint, denominator: bigint): number {
  if (numerator === 0n) return 0;
  const shift = BigInt(denominator.toString(2).length - numerator.toString(2).length + 64);
  return Number((numerator << shift) / denominator) / 2 ** Number(shift);
}

/** Exact P(X ≤ x) for X ~ Bin(n, num/den) with BigInt arithmetic. */
function exactCdf(x: number, n: number, num: number, den: number): number {
  let sum = 0n;
  let coefficient = 1n;
  for (let i = 0; i <= x; i++) {
    if (i > 0) coefficient = (coefficient * BigInt(n - i + 1)) / BigInt(i);
    sum += coefficient * BigInt(num) ** BigInt(i) * BigInt(den - num) ** BigInt(n - i);
  }
  return ratioToNumber(sum, BigInt(den) ** BigInt(n));
}

describe('binomialLogPmf', () => {
  // log C(n,x) + x log p + (n−x) log(1−p) evaluated with mpmath at 40 digits.
  it.each([
    [3, 10, 0.3, -1.3211512777668886],
    [500000, 1000000, 0.5, -7.1335468816268645],
    [499000, 1000000, 0.5, -9.1335462149596645],
    [20, 1000, 0.01, -6.3244909131562631],
    [0, 50, 0.05, -2.5646647193775267],
    [50, 50, 0.95, -2.5646647193775267],
    [1, 1, 0.5, -0.69314718055994531],
    [123456, 1000000, 0.1234, -6.729368570603041],
  ])('log P(X=%d | n=%d, p=%d) matches mpmath', (x, n, p, expected) => {
    expect(Math.abs(binomialLogPmf(x, n, p) - expected)).toBeLessThan(1e-13 * Math.abs(expected));
  });

  it('handles degenerate p and out-of-support x', () => {
    expect(binomialLogPmf(0, 5, 0)).toBe(0);
    expect(binomialLogPmf(1, 5, 0)).toBe(Number.NEGATIVE_INFINITY);
    expect(binomialLogPmf(5, 5, 1)).toBe(0);
    expect(binomialLogPmf(6, 5, 0.5)).toBe(Number.NEGATIVE_INFINITY);
    expect(binomialLogPmf(0, 0, 0.5)).toBe(0);
    expect(() => binomialLogPmf(1.5, 5, 0.5)).toThrow(RangeError);
    expect(() => binomialLogPmf(1, 5, 1.5)).toThrow(RangeError);
  });
});

describe('binomialCdf', () => {
  it.each([
    [0, 10, 3, 10],
    [3, 10, 3, 10],
    [7, 10, 3, 10],
    [12, 40, 1, 2],
    [25, 40, 1, 2],
    [1, 60, 1, 20],
    [55, 60, 19, 20],
    [30, 100, 1, 3],
  ])('P(X ≤ %d | n=%d, p=%d/%d) matches exact BigInt sums', (x, n, num, den) => {
    const exact = exactCdf(x, n, num, den);
    expect(Math.abs(binomialCdf(x, n, num / den) - exact)).toBeLessThan(1e-14 * Math.max(exact, 1e-300) + 1e-16);
  });

  it('is 0 below the support and 1 at or above n', () => {
    expect(binomialCdf(-1, 10, 0.5)).toBe(0);
    expect(binomialCdf(10, 10, 0.5)).toBe(1);
  });
});
