import { describe, expect, it } from 'vitest';
import {
  differenceInDifferences,
  meanDifference,
  meanOf,
  ratioOfRatios,
  ratioOfSums,
} from './sum-statistics.js';

// Hand data, 5 cases, arms A (baseline n=1), B (candidate n=1), C (baseline n=N), D (candidate n=N).
// Column sums: A 2, B 3, C 3, D 5; tokensA 1000, tokensB 900.
const SUMS = { a: 2, b: 3, c: 3, d: 5, tokensA: 1000, tokensB: 900 } as const;
const N = 5;

describe('sum statistics', () => {
  it('meanOf is Σx/n', () => {
    expect(meanOf<keyof typeof SUMS>('b')(SUMS, N)).toBe(0.6);
  });

  it('meanDifference is (Σcandidate − Σbaseline)/n', () => {
    expect(meanDifference<keyof typeof SUMS>({ candidate: 'b', baseline: 'a' })(SUMS, N)).toBe(0.2);
  });

  it('ratioOfSums is tokens_per_success with failed cases\' tokens included: 1000/2 = 500', () => {
    expect(ratioOfSums<keyof typeof SUMS>({ numerator: 'tokensA', denominator: 'a' })(SUMS, N)).toBe(500);
    expect(ratioOfSums<keyof typeof SUMS>({ numerator: 'tokensB', denominator: 'b' })(SUMS, N)).toBe(300);
  });

  it('ratioOfRatios is the tokens_per_success ratio candidate/baseline: 300/500 = 0.6', () => {
    const ratio = ratioOfRatios<keyof typeof SUMS>({
      candidate: { numerator: 'tokensB', denominator: 'b' },
      baseline: { numerator: 'tokensA', denominator: 'a' },
    });
    expect(ratio(SUMS, N)).toBe(0.6);
  });

  it('differenceInDifferences is (D − C) − (B − A) = (1 − 0.6) − (0.6 − 0.4) = 0.2', () => {
    const did = differenceInDifferences<keyof typeof SUMS>({ a: 'a', b: 'b', c: 'c', d: 'd' });
    expect(did(SUMS, N)).toBe(0.2);
  });

  it('returns +Infinity for tokens with no success and NaN for 0/0', () => {
    const tps = ratioOfSums<'tokens' | 'passes'>({ numerator: 'tokens', denominator: 'passes' });
    expect(tps({ tokens: 700, passes: 0 }, 3)).toBe(Number.POSITIVE_INFINITY);
    expect(tps({ tokens: 0, passes: 0 }, 3)).toBeNaN();
  });
});
