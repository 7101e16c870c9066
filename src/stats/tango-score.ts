import type { Interval } from './interval.js';
import { normalQuantile } from './normal.js';

/**
 * Score interval for the difference of two paired proportions: Tango (1998), "Equivalence
 * test and confidence interval for the difference in proportions for the paired-sample
 * design", Statistics in Medicine 17:891–908 (method 10 of Newcombe 1998, "Improved
 * confidence intervals for the difference between binomial proportions based on paired
 * data", Statistics in Medicine 17:2635–2650, compares it with nine others; it holds its
 * level at small n where the Wald and the bootstrap intervals do not).
 *
 * Of n pairs, b had the baseline pass and the candidate fail and c the reverse; the delta is
 * Δ̂ = (c − b)/n. The interval is every Δ₀ the score test does not reject:
 *
 *   T(Δ₀) = (c − b − nΔ₀) / √(n·(2·q̂ + Δ₀(1 − Δ₀))),
 *
 * where q̂ is the maximum-likelihood estimate of P(baseline only) under the constraint
 * P(candidate only) − P(baseline only) = Δ₀: the positive root of
 * 2n·q² + (−b − c + (2n − c + b)Δ₀)·q − bΔ₀(1 − Δ₀) = 0.
 *
 * Unlike the Wald or bootstrap intervals it never collapses to a point: with no discordant
 * pair at all (b = c = 0) it is ±z²/(n + z²) — at 24 concordant pairs about ±13.8 points —
 * because a true difference that small would often show no discordant pair.
 *
 * Counts may be fractional: the clustered interval (paired-delta-interval.ts) divides them by
 * a design effect (Rao & Scott 1992).
 */
export interface DiscordantCounts {
  /** Pairs where the baseline passed and the candidate failed. */
  baselineOnly: number;
  /** Pairs where the candidate passed and the baseline failed. */
  candidateOnly: number;
  /** All pairs n (concordant ones included). */
  pairs: number;
}

/** Bisection steps: 2^-60 of the unit interval is below double precision. */
const STEPS = 60;

/** The constrained MLE q̂ of P(baseline only) given Δ₀ (Tango 1998, eq. 5). */
export function constrainedBaselineOnly(counts: DiscordantCounts, delta0: number): number {
  const { baselineOnly: b, candidateOnly: c, pairs: n } = counts;
  const A = 2 * n;
  const B = -b - c + (2 * n - c + b) * delta0;
  const C = -b * delta0 * (1 - delta0);
  const root = (Math.sqrt(Math.max(0, B * B - 4 * A * C)) - B) / (2 * A);
  return Math.max(0, root);
}

/**
 * Tango's score statistic at Δ₀ (candidate − baseline). Decreasing in Δ₀; ±Infinity where the
 * null variance is 0 but the observed difference is not Δ₀, 0 where both are.
 */
export function tangoScore(counts: DiscordantCounts, delta0: number): number {
  const { baselineOnly: b, candidateOnly: c, pairs: n } = counts;
  const numerator = c - b - n * delta0;
  const variance = n * (2 * constrainedBaselineOnly(counts, delta0) + delta0 * (1 - delta0));
  if (numerator === 0) return 0;
  if (!(variance > 0)) return numerator > 0 ? Number.POSITIVE_INFINITY : Number.NEGATIVE_INFINITY;
  return numerator / Math.sqrt(variance);
}

/**
 * The two-sided Tango interval of Δ = P(candidate only) − P(baseline only).
 *
 * @param criticalValue the quantile the score is held to; default Φ⁻¹(1 − α/2). The clustered
 *   interval passes a Student-t quantile instead.
 * @returns [NaN, NaN] when there are no pairs.
 * @throws RangeError on negative counts or more discordant pairs than pairs.
 */
export function tangoInterval(counts: DiscordantCounts, confidence = 0.95, criticalValue?: number): Interval {
  const { baselineOnly: b, candidateOnly: c, pairs: n } = counts;
  if (!(b >= 0 && c >= 0 && b + c <= n * (1 + 1e-12))) {
    throw new RangeError(`tangoInterval: need 0 ≤ b, c and b + c ≤ n, got b=${b} c=${c} n=${n}`);
  }
  if (!(confidence > 0 && confidence < 1)) throw new RangeError(`confidence must be in (0, 1), got ${confidence}`);
  if (n === 0) return [Number.NaN, Number.NaN];
  const z = criticalValue ?? normalQuantile(1 - (1 - confidence) / 2);
  const estimate = (c - b) / n;
  // T decreases in Δ₀: the lower end is where T falls to z, the upper where it falls to −z.
  const lower = estimate <= -1 ? -1 : crossing(counts, -1, estimate, z);
  const upper = estimate >= 1 ? 1 : crossing(counts, estimate, 1, -z);
  return [lower, upper];
}

/** Δ₀ in [low, high] where the decreasing T(Δ₀) crosses `level` (T(low) ≥ level ≥ T(high)). */
function crossing(counts: DiscordantCounts, low: number, high: number, level: number): number {
  let lo = low;
  let hi = high;
  for (let step = 0; step < STEPS && hi - lo > 1e-15; step++) {
    const mid = (lo + hi) / 2;
    if (tangoScore(counts, mid) >= level) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}
