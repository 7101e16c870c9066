import { describe, expect, it } from 'vitest';
import { normalQuantile } from './normal.js';
import { wilsonInterval } from './wilson.js';

const Z95 = 1.959963984540054;

describe('wilsonInterval', () => {
  it('pins lower = 0 exactly at 0/n with upper = z²/(n + z²)', () => {
    const [lower, upper] = wilsonInterval(0, 10);
    expect(lower).toBe(0);
    expect(upper).toBeCloseTo((Z95 * Z95) / (10 + Z95 * Z95), 14);
  });

  it('pins upper = 1 exactly at n/n with lower = n/(n + z²)', () => {
    for (const n of [1, 3, 10, 1000, 123_457]) {
      const [lower, upper] = wilsonInterval(n, n);
      expect(upper).toBe(1);
      expect(lower).toBeCloseTo(n / (n + Z95 * Z95), 14);
    }
  });

  it('is symmetric about 1/2 at s = n/2 with the closed-form half-width', () => {
    const [lower, upper] = wilsonInterval(5, 10);
    const halfWidth = (Z95 / (1 + (Z95 * Z95) / 10)) * Math.sqrt(0.25 / 10 + (Z95 * Z95) / 400);
    expect(lower).toBeCloseTo(0.5 - halfWidth, 14);
    expect(upper).toBeCloseTo(0.5 + halfWidth, 14);
  });

  // scipy.stats.binomtest(s, n).proportion_ci(confidence_level, method='wilson')
  it.each([
    [5, 10, 0.95, 0.236593090512564, 0.7634069094874361],
    [61, 100, 0.95, 0.5120301704584073, 0.6998312599360558],
    [1, 20, 0.95, 0.008881448800795402, 0.23613119344674205],
    [72, 100, 0.9, 0.6411000245908185, 0.7873091782645847],
    [0, 10, 0.95, 0, 0.27753279986288926],
    [10, 10, 0.95, 0.7224672001371109, 1],
    [3, 7, 0.99, 0.11637368051613817, 0.8102850959116125],
    [999, 1000, 0.95, 0.9943574414020421, 0.9998234536293739],
  ])('%d/%d at %d matches scipy', (s, n, confidence, lower, upper) => {
    const [lo, hi] = wilsonInterval(s, n, confidence);
    expect(lo).toBeCloseTo(lower, 13);
    expect(hi).toBeCloseTo(upper, 13);
  });

  it('solves the score equation (p̂ − p)² = z² p(1 − p)/n at both ends', () => {
    const z = normalQuantile(0.975);
    for (const bound of wilsonInterval(17, 40)) {
      expect((17 / 40 - bound) ** 2).toBeCloseTo((z * z * bound * (1 - bound)) / 40, 15);
    }
  });

  it('returns [0, 1] with no trials and rejects invalid input', () => {
    expect(wilsonInterval(0, 0)).toEqual([0, 1]);
    expect(() => wilsonInterval(3, 2)).toThrow(RangeError);
    expect(() => wilsonInterval(-1, 2)).toThrow(RangeError);
    expect(() => wilsonInterval(1.5, 2)).toThrow(RangeError);
    expect(() => wilsonInterval(1, 2, 1)).toThrow(RangeError);
    expect(() => wilsonInterval(1, 2, 0)).toThrow(RangeError);
  });
});
