import { describe, expect, test } from 'vitest';
import { normalQuantile } from './normal.js';
import { tangoInterval, tangoScore, type DiscordantCounts } from './tango-score.js';

/**
 * An independent computation of Tango's interval: the constrained MLE found by maximising the
 * multinomial log-likelihood numerically (golden-section search, no closed-form root), and
 * the interval read off a fine grid of Δ₀ where |T(Δ₀)| ≤ z — no bisection, no monotonicity
 * assumed.
 */
function bruteForceInterval(counts: DiscordantCounts, confidence = 0.95, step = 1e-3): [number, number] {
  const { baselineOnly: b, candidateOnly: c, pairs: n } = counts;
  const z = normalQuantile(1 - (1 - confidence) / 2);
  const logLikelihood = (q: number, d: number): number => {
    const r = q + d;
    const rest = 1 - 2 * q - d;
    const term = (count: number, p: number): number => (count === 0 ? 0 : p > 0 ? count * Math.log(p) : Number.NEGATIVE_INFINITY);
    return term(b, q) + term(c, r) + term(n - b - c, rest);
  };
  const mle = (d: number): number => {
    // q ∈ [max(0, −d), (1 − d)/2] keeps every cell probability in [0, 1].
    let lo = Math.max(0, -d);
    let hi = (1 - d) / 2;
    const golden = (Math.sqrt(5) - 1) / 2;
    for (let i = 0; i < 90; i++) {
      const x1 = hi - golden * (hi - lo);
      const x2 = lo + golden * (hi - lo);
      if (logLikelihood(x1, d) < logLikelihood(x2, d)) lo = x1;
      else hi = x2;
    }
    return (lo + hi) / 2;
  };
  const accepts = (d: number): boolean => Math.abs((c - b - n * d) / Math.sqrt(n * (2 * mle(d) + d * (1 - d)))) <= z;
  // A coarse scan over (−1, 1), then a fine one around each end it found.
  const coarse: number[] = [];
  for (let d = -1 + step; d < 1 - step / 2; d += step) if (accepts(d)) coarse.push(d);
  const fine = (from: number, to: number): number[] => {
    const found: number[] = [];
    for (let d = from; d <= to; d += step / 100) if (d > -1 && d < 1 && accepts(d)) found.push(d);
    return found;
  };
  const low = Math.min(...coarse);
  const high = Math.max(...coarse);
  return [Math.min(...fine(low - step, low + step)), Math.max(...fine(high - step, high + step))];
}

describe('Tango score interval for paired proportions (Tango 1998)', () => {
  test('matches the published worked example: Cavo et al. 2012, [−0.1240, −0.0054]', () => {
    // Fagerland, Lydersen & Laake (2017), "Statistical Analysis of Contingency Tables", ch. 8,
    // complete response before/after consolidation therapy: n11=59, n12=6, n21=16, n22=80;
    // Tango's asymptotic score interval for the difference is −0.0621 (−0.1240 to −0.0054),
    // as reproduced by the R package contingencytables' tests (test-ch8.R).
    const [lower, upper] = tangoInterval({ baselineOnly: 16, candidateOnly: 6, pairs: 161 });
    expect(lower).toBeCloseTo(-0.124, 4);
    expect(upper).toBeCloseTo(-0.0054, 4);
  });

  test('agrees with a brute-force score inversion (numerical MLE, grid scan) on assorted tables', () => {
    const tables: DiscordantCounts[] = [
      { baselineOnly: 16, candidateOnly: 6, pairs: 161 },
      { baselineOnly: 0, candidateOnly: 3, pairs: 50 },
      { baselineOnly: 7, candidateOnly: 1, pairs: 21 },
      { baselineOnly: 0, candidateOnly: 0, pairs: 24 },
      { baselineOnly: 2, candidateOnly: 9, pairs: 20 },
      { baselineOnly: 40, candidateOnly: 20, pairs: 160 },
      { baselineOnly: 1, candidateOnly: 0, pairs: 5 },
    ];
    for (const counts of tables) {
      const [lower, upper] = tangoInterval(counts);
      const [bruteLower, bruteUpper] = bruteForceInterval(counts);
      expect(Math.abs(lower - bruteLower)).toBeLessThan(2e-5);
      expect(Math.abs(upper - bruteUpper)).toBeLessThan(2e-5);
    }
  });

  test('all pairs concordant: ±z²/(n + z²), never zero width (24 pairs: ±13.8 pts)', () => {
    const z = normalQuantile(0.975);
    for (const n of [5, 24, 200]) {
      const [lower, upper] = tangoInterval({ baselineOnly: 0, candidateOnly: 0, pairs: n });
      expect(upper).toBeCloseTo((z * z) / (n + z * z), 9);
      expect(lower).toBeCloseTo(-upper, 12);
    }
    expect(tangoInterval({ baselineOnly: 0, candidateOnly: 0, pairs: 24 })[1]).toBeCloseTo(0.138, 3);
  });

  test('three candidate-only passes in 50 cases: the interval holds 0 (exact McNemar p = 0.25)', () => {
    const [lower, upper] = tangoInterval({ baselineOnly: 0, candidateOnly: 3, pairs: 50 });
    expect(lower).toBeLessThan(0);
    expect(upper).toBeGreaterThan(0.06);
  });

  test('swapping the arms negates the interval; the statistic is 0 at the estimate and decreasing', () => {
    const counts = { baselineOnly: 4, candidateOnly: 11, pairs: 60 };
    const [lower, upper] = tangoInterval(counts);
    const [swappedLower, swappedUpper] = tangoInterval({ baselineOnly: 11, candidateOnly: 4, pairs: 60 });
    expect(swappedLower).toBeCloseTo(-upper, 12);
    expect(swappedUpper).toBeCloseTo(-lower, 12);
    expect(tangoScore(counts, 7 / 60)).toBe(0);
    let previous = Number.POSITIVE_INFINITY;
    for (let d = -0.99; d < 0.99; d += 0.01) {
      const score = tangoScore(counts, d);
      expect(score).toBeLessThanOrEqual(previous);
      previous = score;
    }
  });

  test('every pair one way: the interval reaches the bound; fractional counts are accepted', () => {
    expect(tangoInterval({ baselineOnly: 0, candidateOnly: 20, pairs: 20 })[1]).toBe(1);
    expect(tangoInterval({ baselineOnly: 20, candidateOnly: 0, pairs: 20 })[0]).toBe(-1);
    const [lower, upper] = tangoInterval({ baselineOnly: 0.5, candidateOnly: 4.5, pairs: 12.5 });
    expect(lower).toBeLessThan(0.32);
    expect(upper).toBeGreaterThan(0.32);
  });

  test('rejects impossible tables', () => {
    expect(() => tangoInterval({ baselineOnly: 6, candidateOnly: 6, pairs: 10 })).toThrow(RangeError);
    expect(() => tangoInterval({ baselineOnly: -1, candidateOnly: 0, pairs: 10 })).toThrow(RangeError);
  });
});
