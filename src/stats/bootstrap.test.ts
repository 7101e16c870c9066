import { beforeAll, describe, expect, it } from 'vitest';
import { jackknifeAcceleration } from './bootstrap-intervals.js';
import { pairedBootstrap, pairedDifference } from './bootstrap.js';
import { normalCdf, normalQuantile } from './normal.js';
import { differenceInDifferences, meanDifference, ratioOfRatios, ratioOfSums } from './sum-statistics.js';

// Tiny paired data (integers, so every sum and tie is exact).
const TINY = {
  baseline: [2, 15, 7, 31],
  candidate: [9, 14, 22, 30],
  tokens: [120, 340, 200, 90],
  passes: [1, 0, 1, 1],
};
type TinyColumn = keyof typeof TINY;
const TINY_STATISTICS = {
  delta: meanDifference<TinyColumn>({ candidate: 'candidate', baseline: 'baseline' }),
  tokensPerSuccess: ratioOfSums<TinyColumn>({ numerator: 'tokens', denominator: 'passes' }),
};

/**
 * The exact bootstrap distribution: all n^n equally likely index tuples (equivalently, every
 * multinomial count vector with its multinomial weight), evaluated without the engine.
 */
function exactDistribution(statistic: (indices: number[]) => number, n: number): number[] {
  const values: number[] = [];
  for (let code = 0; code < n ** n; code++) {
    const indices = Array.from({ length: n }, (_, position) => Math.floor(code / n ** position) % n);
    values.push(statistic(indices));
  }
  return values.sort((x, y) => x - y);
}

/** Inverse CDF of an equally weighted discrete distribution: min{v : F(v) ≥ p}. */
function exactQuantile(sorted: number[], p: number): number {
  return sorted[Math.max(0, Math.ceil(p * sorted.length) - 1)] as number;
}

const sumOver = (column: number[], indices: number[]): number => indices.reduce((s, i) => s + (column[i] as number), 0);

describe('pairedBootstrap against exact enumeration (n = 4, 256 resamples)', () => {
  const n = 4;
  const exact = {
    delta: exactDistribution((ix) => (sumOver(TINY.candidate, ix) - sumOver(TINY.baseline, ix)) / n, n),
    tokensPerSuccess: exactDistribution((ix) => sumOver(TINY.tokens, ix) / sumOver(TINY.passes, ix), n),
  };
  // 2M rounds: the Monte-Carlo error in a quantile level is ~1.1e-4, far below the 1/256
  // spacing of the exact CDF, so each Monte-Carlo endpoint must land on the exact atom.
  let result!: ReturnType<typeof pairedBootstrap<TinyColumn, keyof typeof TINY_STATISTICS>>;
  beforeAll(() => {
    result = pairedBootstrap({ columns: TINY, statistics: TINY_STATISTICS, rounds: 2_000_000, seed: 11 });
  });

  it('reproduces the exact percentile interval', () => {
    for (const name of ['delta', 'tokensPerSuccess'] as const) {
      const sorted = exact[name];
      // Preconditions: 0.025 and 0.975 sit 0.4/256 from a CDF step (> 10 MC standard errors).
      expect(result[name].percentile[0]).toBeCloseTo(exactQuantile(sorted, 0.025), 9);
      expect(result[name].percentile[1]).toBeCloseTo(exactQuantile(sorted, 0.975), 9);
    }
    expect(result.delta.percentile).toEqual([-1, 11]);
    expect(result.tokensPerSuccess.percentile).toEqual([105, 1140]);
  });

  it('reproduces the ideal BCa interval (exact z0 with half ties, jackknife a)', () => {
    const others = [0, 1, 2, 3].map((i) => [0, 1, 2, 3].filter((j) => j !== i));
    const leaveOneOut = {
      delta: others.map((ix) => (sumOver(TINY.candidate, ix) - sumOver(TINY.baseline, ix)) / 3),
      tokensPerSuccess: others.map((ix) => sumOver(TINY.tokens, ix) / sumOver(TINY.passes, ix)),
    };
    for (const name of ['delta', 'tokensPerSuccess'] as const) {
      const sorted = exact[name];
      const estimate = result[name].estimate;
      const below = sorted.filter((v) => v < estimate).length;
      const ties = sorted.filter((v) => v === estimate).length;
      expect(ties).toBeGreaterThan(0); // ties are real here; half-counting matters
      const z0 = normalQuantile((below + ties / 2) / sorted.length);
      const a = jackknifeAcceleration(leaveOneOut[name]);
      expect(result[name].acceleration).toBeCloseTo(a, 12);
      expect(result[name].biasCorrection).toBeCloseTo(z0, 2);
      const levels = [0.025, 0.975].map((p) => {
        const z = normalQuantile(p);
        return normalCdf(z0 + (z0 + z) / (1 - a * (z0 + z)));
      });
      expect(result[name].bca[0]).toBeCloseTo(exactQuantile(sorted, levels[0] as number), 9);
      expect(result[name].bca[1]).toBeCloseTo(exactQuantile(sorted, levels[1] as number), 9);
    }
    // Values from an independent Python/scipy enumeration of the same data.
    expect(result.delta.bca).toEqual([-1, 13]);
    expect(result.tokensPerSuccess.bca).toEqual([117.5, 1220]);
  });

  it('matches the exact bootstrap standard error, and keeps +Infinity rounds', () => {
    const values = exact.delta;
    const mean = values.reduce((s, v) => s + v, 0) / values.length;
    const exactSd = Math.sqrt(values.reduce((s, v) => s + (v - mean) ** 2, 0) / values.length);
    expect(result.delta.standardError).toBeCloseTo(exactSd, 2);
    // One resample in 256 draws only the failed case: tokens with no success → +Infinity.
    expect(result.tokensPerSuccess.standardError).toBe(Number.POSITIVE_INFINITY);
    expect(result.tokensPerSuccess.undefinedRounds).toBe(0);
    expect(result.tokensPerSuccess.estimate).toBe(250);
  });
});

describe('pairedBootstrap', () => {
  it('agrees with scipy.stats.bootstrap (paired, 1M resamples) on skewed data', () => {
    const baseline = [12, 40, 7, 33, 25, 18, 9, 51, 22, 30, 14, 27, 45, 8, 19, 11, 23, 36, 17, 28];
    const candidate = [15, 38, 20, 41, 24, 30, 16, 49, 35, 29, 22, 40, 47, 9, 31, 140, 26, 39, 18, 95];
    const result = pairedDifference(baseline, candidate, { rounds: 1_000_000, seed: 5 });
    // scipy 1.17: percentile [4.15, 29.65], BCa [5.60, 37.85–37.90], SE 6.70 (two seeds).
    expect(result.estimate).toBeCloseTo(14.45, 12);
    expect(result.percentile[0]).toBeCloseTo(4.15, 1);
    expect(result.percentile[1]).toBeCloseTo(29.65, 1);
    expect(result.bca[0]).toBeCloseTo(5.6, 1);
    expect(Math.abs(result.bca[1] - 37.875)).toBeLessThan(0.15);
    expect(result.standardError).toBeCloseTo(6.70, 1);
  });

  it('computes ratio-of-sums and difference-in-differences estimates on hand data', () => {
    // 5 cases; arms A..D are 0/1 passes; tokens include failed cases.
    const columns = {
      a: [1, 0, 1, 0, 0],
      b: [1, 1, 1, 0, 0],
      c: [1, 1, 1, 0, 0],
      d: [1, 1, 1, 1, 1],
      tokensA: [100, 300, 200, 250, 150],
      tokensB: [120, 180, 150, 200, 250],
    };
    type Column = keyof typeof columns;
    const result = pairedBootstrap({
      columns,
      statistics: {
        tokensPerSuccessA: ratioOfSums<Column>({ numerator: 'tokensA', denominator: 'a' }),
        tokensPerSuccessB: ratioOfSums<Column>({ numerator: 'tokensB', denominator: 'b' }),
        tokensRatio: ratioOfRatios<Column>({
          candidate: { numerator: 'tokensB', denominator: 'b' },
          baseline: { numerator: 'tokensA', denominator: 'a' },
        }),
        did: differenceInDifferences<Column>({ a: 'a', b: 'b', c: 'c', d: 'd' }),
      },
      rounds: 2000,
      seed: 3,
    });
    expect(result.tokensPerSuccessA.estimate).toBe(1000 / 2); // 500
    expect(result.tokensPerSuccessB.estimate).toBe(900 / 3); // 300
    expect(result.tokensRatio.estimate).toBe(0.6);
    expect(result.did.estimate).toBeCloseTo((1 - 0.6) - (0.6 - 0.4), 15); // 0.2
    // Resamples with no A success give 0/0 only if they also have no tokens: never here, so
    // those rounds are +Infinity (kept), and no round is undefined.
    expect(result.tokensPerSuccessA.undefinedRounds).toBe(0);
    expect(result.tokensPerSuccessA.percentile[1]).toBe(Number.POSITIVE_INFINITY);
  });

  it('drops NaN rounds (0/0) and reports them', () => {
    // Tokens and the success are both on case 0: a resample without case 0 is 0/0.
    const columns = { tokens: [500, 0, 0, 0, 0, 0, 0, 0, 0, 0], passes: [1, 0, 0, 0, 0, 0, 0, 0, 0, 0] };
    const { tps } = pairedBootstrap({
      columns,
      statistics: { tps: ratioOfSums<'tokens' | 'passes'>({ numerator: 'tokens', denominator: 'passes' }) },
      rounds: 10_000,
      seed: 8,
    });
    // P(case 0 never drawn) = 0.9^10 = 0.3487.
    expect(tps.undefinedRounds / 10_000).toBeCloseTo(0.9 ** 10, 1);
    expect(tps.rounds + tps.undefinedRounds).toBe(10_000);
    expect(tps.percentile).toEqual([500, 500]);
    expect(tps.standardError).toBe(0);
  });

  it('pairs arms through shared indices: identical arms give a zero-width interval', () => {
    const arm = [1, 0, 1, 1, 0, 1, 0, 0, 1, 1];
    const result = pairedDifference(arm, arm, { rounds: 500, seed: 1 });
    expect(result.percentile).toEqual([0, 0]);
    expect(result.bca).toEqual([0, 0]);
    expect(result.standardError).toBe(0);
  });

  it('counts exact ties in 0/1 data for z0', () => {
    // One discordant case in 20: replicate = k/20 with k ~ Bin(20, 1/20); P(k=0) = 0.95^20,
    // P(k=1) = 0.95^19, so the exact tie-aware level is 0.95^20 + 0.95^19 / 2.
    const baseline = new Array<number>(20).fill(0);
    const candidate = baseline.map((_, i) => (i === 0 ? 1 : 0));
    const result = pairedDifference(baseline, candidate, { rounds: 40_000, seed: 4 });
    expect(Math.abs(result.biasCorrection - normalQuantile(0.95 ** 20 + 0.95 ** 19 / 2))).toBeLessThan(0.02);
  });

  it('is reproducible for a seed and varies across seeds', () => {
    const baseline = [1, 0, 1, 1, 0, 1, 0, 0, 1, 1, 0, 1];
    const candidate = [1, 1, 1, 1, 0, 1, 1, 0, 1, 1, 1, 1];
    const first = pairedDifference(baseline, candidate, { rounds: 300, seed: 99 });
    expect(pairedDifference(baseline, candidate, { rounds: 300, seed: 99 })).toEqual(first);
    const other = pairedDifference(baseline, candidate, { rounds: 300, seed: 100 });
    expect(other.standardError).not.toBe(first.standardError);
  });

  it('rejects ragged, empty or non-finite columns and bad options', () => {
    const statistics = { d: meanDifference<'x' | 'y'>({ candidate: 'y', baseline: 'x' }) };
    const run = (x: number[], y: number[], rounds = 10, confidence = 0.95) => () =>
      pairedBootstrap({ columns: { x, y }, statistics, rounds, seed: 1, confidence });
    expect(run([1, 2], [1])).toThrow(RangeError);
    expect(run([], [])).toThrow(RangeError);
    expect(run([1, Number.NaN], [1, 2])).toThrow(RangeError);
    expect(run([1], [1], 0)).toThrow(RangeError);
    expect(run([1], [1], 10, 1)).toThrow(RangeError);
  });
});
