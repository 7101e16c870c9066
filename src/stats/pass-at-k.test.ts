import { describe, expect, it } from 'vitest';
import { passAtK } from './pass-at-k.js';

/** Exact binomial coefficient with BigInt — an independent route to the same estimator. */
function binomial(n: number, k: number): bigint {
  if (k < 0 || k > n) return 0n;
  let result = 1n;
  for (let i = 1; i <= k; i++) result = (result * BigInt(n - k + i)) / BigInt(i);
  return result;
}

/** numerator / denominator as a double, keeping ~64 significant bits before rounding. */
function ratioToNumber(numerator: bigint, denominator: bigint): number {
  if (numerator === 0n) return 0;
  const shift = BigInt(denominator.toString(2).length - numerator.toString(2).length + 64);
  return Number((numerator << shift) / denominator) / 2 ** Number(shift);
}

function exactPassAtK(n: number, c: number, k: number): number {
  const total = binomial(n, k);
  return ratioToNumber(total - binomial(n - c, k), total);
}

describe('passAtK', () => {
  it('is 0 with no correct samples and 1 with all correct', () => {
    expect(passAtK(10, 0, 1)).toBe(0);
    expect(passAtK(10, 0, 10)).toBe(0);
    expect(passAtK(10, 10, 1)).toBe(1);
    expect(passAtK(1, 1, 1)).toBe(1);
  });

  it('is 1 whenever n − c < k', () => {
    expect(passAtK(10, 5, 6)).toBe(1);
    expect(passAtK(200, 150, 51)).toBe(1);
  });

  it('reduces to c/n at k = 1', () => {
    expect(passAtK(8, 3, 1)).toBeCloseTo(3 / 8, 15);
    expect(passAtK(200, 7, 1)).toBeCloseTo(7 / 200, 15);
  });

  it('matches a hand computation: n=5, c=2, k=2 → 1 − C(3,2)/C(5,2) = 0.7', () => {
    expect(passAtK(5, 2, 2)).toBeCloseTo(0.7, 15);
  });

  const cases: Array<[number, number, number]> = [];
  for (const c of [1, 2, 5, 13, 50, 100, 150, 190, 199]) {
    for (const k of [1, 2, 5, 10, 25, 50, 100]) cases.push([200, c, k]);
  }
  it.each(cases)('n=%d c=%d k=%d matches exact BigInt binomials', (n, c, k) => {
    const exact = exactPassAtK(n, c, k);
    const value = passAtK(n, c, k);
    expect(Math.abs(value - exact)).toBeLessThanOrEqual(1e-13 * exact);
  });

  it('keeps relative precision for tiny values (n = 1000, c = 1, k = 1)', () => {
    expect(passAtK(1000, 1, 1)).toBe(0.001);
  });

  it.each([
    [-1, 0, 1],
    [5, -1, 1],
    [5, 0, -1],
    [5, 0, 0],
    [5, 0, 6],
    [5, 6, 1],
    [5.5, 1, 1],
    [5, 1.5, 1],
    [5, 1, 1.5],
    [Number.NaN, 1, 1],
  ])('rejects n=%d c=%d k=%d', (n, c, k) => {
    expect(() => passAtK(n, c, k)).toThrow(RangeError);
  });
});
