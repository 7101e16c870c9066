/**
 * Monotonic trend of a short series (one value per month or week), pure: the Mann–Kendall
 * test (Mann 1945; Kendall 1975) with Sen's slope (Sen 1968) and its rank-based interval
 * (Gilbert 1987, "Statistical Methods for Environmental Pollution Monitoring", §16.5).
 *
 * Why this test: it assumes no distribution and no linearity, only that under "no trend"
 * every ordering of the values is equally likely; one outlier month cannot fake or hide a
 * trend the way it can move a least-squares slope. With no ties the null distribution of S
 * is exact (counted from permutations by their inversions); with ties, the normal
 * approximation with the tie-corrected variance and a continuity correction.
 */
import { normalCdf, normalQuantile } from '../stats/index.js';

export interface TrendTest {
  /** Values tested (periods with data). */
  points: number;
  /** Mann–Kendall S: concordant minus discordant pairs. */
  s: number;
  /** One-sided p-value for an increasing trend. */
  pIncreasing: number;
  /** One-sided p-value for a decreasing trend. */
  pDecreasing: number;
  exact: boolean;
  /** Sen's slope: median of the pairwise slopes, per period. */
  slope: number;
  slopeCi: readonly [number, number];
  /** Sen's line at the first period (so a chart can draw it): median of x − slope·t. */
  intercept: number;
}

/** `t` are period ordinals (gaps allowed), `x` the values; both of the same length ≥ 2. */
export function mannKendall(t: readonly number[], x: readonly number[], confidence = 0.95): TrendTest | undefined {
  const n = x.length;
  if (n < 2 || t.length !== n) return undefined;
  let s = 0;
  const slopes: number[] = [];
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) {
      const dx = (x[j] as number) - (x[i] as number);
      s += Math.sign(dx);
      const dt = (t[j] as number) - (t[i] as number);
      if (dt !== 0) slopes.push(dx / dt);
    }
  }
  slopes.sort((a, b) => a - b);
  const ties = tieGroups(x);
  const variance = (n * (n - 1) * (2 * n + 5) - ties.reduce((acc, g) => acc + g * (g - 1) * (2 * g + 5), 0)) / 18;
  const exact = ties.length === 0 && n <= 50;
  let pIncreasing: number;
  let pDecreasing: number;
  if (exact) {
    const cdf = inversionCdf(n);
    const pairs = (n * (n - 1)) / 2;
    // S = pairs − 2·inversions, so S ≥ s ⇔ inversions ≤ (pairs − s)/2.
    pIncreasing = cdf[(pairs - s) / 2] ?? 1;
    pDecreasing = cdf[(pairs + s) / 2] ?? 1;
  } else {
    const sd = Math.sqrt(variance);
    pIncreasing = sd === 0 ? 1 : 1 - normalCdf((s - 1) / sd);
    pDecreasing = sd === 0 ? 1 : normalCdf((s + 1) / sd);
  }
  const slope = median(slopes);
  const c = normalQuantile(1 - (1 - confidence) / 2) * Math.sqrt(variance);
  const m = slopes.length;
  const lower = slopes[Math.max(0, Math.round((m - c) / 2) - 1)] ?? slope;
  const upper = slopes[Math.min(m - 1, Math.round((m + c) / 2))] ?? slope;
  const intercept = median(x.map((v, i) => v - slope * ((t[i] as number) - (t[0] as number))));
  return { points: n, s, pIncreasing: Math.min(1, pIncreasing), pDecreasing: Math.min(1, pDecreasing), exact, slope, slopeCi: [lower, upper], intercept };
}

/** P(inversions ≤ k) over the n! equally likely orderings (Mahonian numbers, as probabilities). */
function inversionCdf(n: number): number[] {
  let p = [1];
  for (let m = 2; m <= n; m++) {
    const next = new Array<number>(p.length + m - 1).fill(0);
    // Inserting the m-th element adds 0..m−1 inversions, each with probability 1/m.
    for (let k = 0; k < p.length; k++) {
      const share = (p[k] as number) / m;
      for (let j = 0; j < m; j++) next[k + j] = (next[k + j] as number) + share;
    }
    p = next;
  }
  let total = 0;
  return p.map((v) => (total += v));
}

function tieGroups(x: readonly number[]): number[] {
  const counts = new Map<number, number>();
  for (const v of x) counts.set(v, (counts.get(v) ?? 0) + 1);
  return [...counts.values()].filter((c) => c > 1);
}

function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}
