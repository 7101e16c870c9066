import { describe, expect, it } from 'vitest';
import { clusteredStandardError, meanStandardError, pairedDifferenceSd, pairedStandardError } from './paired-se.js';

describe('meanStandardError', () => {
  it('is √(p̂(1−p̂)/(n−1)) for 0/1 data', () => {
    // 3 of 8: s² = n·p̂(1−p̂)/(n−1), so SE = √(p̂(1−p̂)/(n−1)).
    const values = [1, 1, 1, 0, 0, 0, 0, 0];
    expect(meanStandardError(values)).toBeCloseTo(Math.sqrt(((3 / 8) * (5 / 8)) / 7), 15);
  });

  it('matches a hand computation: [2, 4, 4, 4, 5, 5, 7, 9] → s² = 32/7, SE = √(32/56)', () => {
    expect(meanStandardError([2, 4, 4, 4, 5, 5, 7, 9])).toBeCloseTo(Math.sqrt(32 / 56), 15);
  });

  it('is NaN below two values and rejects non-finite input', () => {
    expect(meanStandardError([1])).toBeNaN();
    expect(meanStandardError([])).toBeNaN();
    expect(() => meanStandardError([1, Number.NaN])).toThrow(RangeError);
  });
});

describe('clusteredStandardError', () => {
  it('matches the Miller (2024) clustered formula by hand', () => {
    // mean 0.5, residuals ±0.5, Σe² = 1.5 → SE²_CLT = (1.5/5)/6 = 0.05.
    // Cluster residual sums a: 0, b: 1, c: −1; cross = Σ(E_c² − Σe²_c) = −0.5 + 0.5 + 0.5 = 0.5.
    // SE² = 0.05 + 0.5/36.
    const se = clusteredStandardError([1, 0, 1, 1, 0, 0], ['a', 'a', 'b', 'b', 'c', 'c']);
    expect(se).toBeCloseTo(Math.sqrt(0.05 + 0.5 / 36), 15);
  });

  it('equals the CLT standard error when every cluster is a singleton', () => {
    const values = [0.3, 1.7, 2.2, 0.1, 5, 4.4];
    expect(clusteredStandardError(values, [1, 2, 3, 4, 5, 6])).toBeCloseTo(meanStandardError(values), 15);
  });

  it('grows when clusters share their outcome (duplicated questions)', () => {
    const values = [1, 1, 1, 0, 0, 0, 1, 1, 1, 0, 0, 0];
    const clusters = ['a', 'a', 'a', 'b', 'b', 'b', 'c', 'c', 'c', 'd', 'd', 'd'];
    // Residuals ±0.5, cluster sums ±1.5: SE² = Σe²/(n(n−1)) + (Σ_c E_c² − Σe²)/n²
    //  = 3/132 + (9 − 3)/144.
    const se = clusteredStandardError(values, clusters);
    expect(se).toBeCloseTo(Math.sqrt(3 / 132 + 6 / 144), 15);
    expect(se).toBeGreaterThan(meanStandardError(values));
  });

  it('rejects mismatched cluster keys', () => {
    expect(() => clusteredStandardError([1, 2], ['a'])).toThrow(RangeError);
  });
});

describe('pairedStandardError', () => {
  it('is the SE of per-case differences, not of the two arms separately', () => {
    const baseline = [1, 0, 1, 1, 0, 1, 0, 0, 1, 1];
    const candidate = [1, 1, 1, 1, 0, 1, 1, 0, 1, 1];
    // Differences: two +1, eight 0 → mean 0.2, Σ(d − 0.2)² = 2·0.64 + 8·0.04 = 1.6,
    // s² = 1.6/9, SE = √(1.6/90).
    expect(pairedStandardError(baseline, candidate)).toBeCloseTo(Math.sqrt(1.6 / 90), 15);
    expect(pairedDifferenceSd(baseline, candidate)).toBeCloseTo(Math.sqrt(1.6 / 9), 15);
  });

  it('uses the clustered form on differences when clusters are given', () => {
    const baseline = [0, 0, 0, 0, 1, 1];
    const candidate = [1, 0, 1, 1, 1, 1];
    // d = [1, 0, 1, 1, 0, 0] — the same residual structure as the Miller hand example.
    expect(pairedStandardError(baseline, candidate, ['a', 'a', 'b', 'b', 'c', 'c'])).toBeCloseTo(
      Math.sqrt(0.05 + 0.5 / 36),
      15,
    );
  });

  it('rejects arms of different lengths', () => {
    expect(() => pairedStandardError([1, 0], [1])).toThrow(RangeError);
  });
});
