import { describe, expect, it } from 'vitest';
import { biasCorrection, jackknifeAcceleration, summarizeReplicates } from './bootstrap-intervals.js';
import { normalQuantile } from './normal.js';

describe('jackknifeAcceleration', () => {
  it('matches a hand computation: [1, 2, 3, 10] → −180 / (6·50^1.5)', () => {
    // mean 4; θ̄ − θᵢ = [3, 2, 1, −6]; Σ cubes = −180; Σ squares = 50.
    expect(jackknifeAcceleration([1, 2, 3, 10])).toBeCloseTo(-180 / (6 * 50 ** 1.5), 15);
  });

  it('is 0 for constant values, NaN for non-finite or too few values', () => {
    expect(jackknifeAcceleration([0.5, 0.5, 0.5])).toBe(0);
    expect(jackknifeAcceleration([1, Number.POSITIVE_INFINITY])).toBeNaN();
    expect(jackknifeAcceleration([1])).toBeNaN();
  });
});

describe('biasCorrection', () => {
  it('counts ties with the estimate as half (scipy.stats.bootstrap convention)', () => {
    // 1 below, 2 tied, 2 above → (1 + 1)/5 = 0.4.
    expect(biasCorrection([0, 1, 1, 2, 3], 1)).toBeCloseTo(normalQuantile(0.4), 15);
    expect(biasCorrection([1, 1, 1], 1)).toBe(0);
  });
});

describe('summarizeReplicates', () => {
  it('reduces BCa to the percentile interval when z0 = 0 and a = 0', () => {
    const sorted = Float64Array.from({ length: 101 }, (_, i) => i - 50);
    const summary = summarizeReplicates({
      estimate: 0,
      sortedReplicates: sorted,
      undefinedRounds: 0,
      leaveOneOut: [1, 1, 1],
      confidence: 0.9,
    });
    expect(summary.biasCorrection).toBe(0);
    expect(summary.acceleration).toBe(0);
    expect(summary.percentile).toEqual([-45, 45]);
    expect(summary.bca[0]).toBeCloseTo(-45, 10);
    expect(summary.bca[1]).toBeCloseTo(45, 10);
  });

  it('reports NaN intervals when nothing was defined', () => {
    const summary = summarizeReplicates({
      estimate: Number.NaN,
      sortedReplicates: new Float64Array(0),
      undefinedRounds: 10,
      leaveOneOut: [],
      confidence: 0.95,
    });
    expect(summary.rounds).toBe(0);
    expect(summary.undefinedRounds).toBe(10);
    expect(summary.percentile.every(Number.isNaN)).toBe(true);
    expect(summary.bca.every(Number.isNaN)).toBe(true);
  });
});
