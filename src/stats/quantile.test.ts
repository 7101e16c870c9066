import { describe, expect, it } from 'vitest';
import { quantile, quantileOfSorted, quantiles } from './quantile.js';

const LATENCIES = [120, 85, 300, 95, 110, 2000, 101, 99, 130, 87];

describe('quantile (Hyndman & Fan type 7)', () => {
  // numpy.percentile(LATENCIES, [0, 5, 25, 50, 95, 99, 100]) with the default 'linear' method.
  it.each([
    [0, 85],
    [0.05, 85.9],
    [0.25, 96],
    [0.5, 105.5],
    [0.95, 1235],
    [0.99, 1847],
    [1, 2000],
  ])('p=%d matches numpy', (p, expected) => {
    expect(quantile(LATENCIES, p)).toBeCloseTo(expected, 9);
  });

  it('follows the definition by hand: [1.25, 2, 3.5, 9] at 0.95 → h = 2.85 → 3.5 + 0.85·5.5', () => {
    expect(quantile([3.5, 1.25, 9, 2], 0.95)).toBeCloseTo(3.5 + 0.85 * 5.5, 12);
    expect(quantile([3.5, 1.25, 9, 2], 0.1)).toBeCloseTo(1.475, 12);
  });

  it('skips undefined, does not mutate its input, and returns undefined with no values', () => {
    const values = [undefined, 4, undefined, 1, 3, 2];
    expect(quantile(values, 0.5)).toBe(2.5);
    expect(values).toEqual([undefined, 4, undefined, 1, 3, 2]);
    expect(quantile([undefined, undefined], 0.5)).toBeUndefined();
    expect(quantile([], 0.5)).toBeUndefined();
    expect(quantile([7], 0.95)).toBe(7);
  });

  it('computes several quantiles from one sort', () => {
    expect(quantiles(LATENCIES, [0.5, 0.95])?.map((v) => Math.round(v * 1e9) / 1e9)).toEqual([105.5, 1235]);
    expect(quantiles([undefined], [0.5])).toBeUndefined();
  });

  it('rejects NaN values and probabilities outside [0, 1]', () => {
    expect(() => quantile([1, Number.NaN], 0.5)).toThrow(RangeError);
    expect(() => quantile([1, 2], 1.5)).toThrow(RangeError);
    expect(() => quantile([1, 2], Number.NaN)).toThrow(RangeError);
    expect(() => quantileOfSorted([], 0.5)).toThrow(RangeError);
  });

  it('interpolates towards infinities as limits', () => {
    expect(quantileOfSorted([1, 2, Number.POSITIVE_INFINITY], 0.9)).toBe(Number.POSITIVE_INFINITY);
    expect(quantileOfSorted([Number.NEGATIVE_INFINITY, 0, 1], 0.1)).toBe(Number.NEGATIVE_INFINITY);
    expect(quantileOfSorted([Number.NEGATIVE_INFINITY, Number.POSITIVE_INFINITY], 0.5)).toBeNaN();
    const infinity = Number.POSITIVE_INFINITY;
    expect(quantileOfSorted([1, infinity, infinity], 0.75)).toBe(infinity);
    expect(quantileOfSorted([1, 2, Number.POSITIVE_INFINITY], 0.5)).toBe(2);
  });
});
