import type { Interval } from './interval.js';
import { normalCdf, normalQuantile } from './normal.js';
import { quantileOfSorted } from './quantile.js';

/** What the bootstrap reports for one statistic. */
export interface BootstrapEstimate {
  /** The statistic on the original sample. */
  estimate: number;
  /** Percentile interval: type-7 quantiles α/2 and 1 − α/2 of the replicates (Efron 1979). */
  percentile: Interval;
  /**
   * Bias-corrected and accelerated interval (Efron 1987). [NaN, NaN] when undefined: the
   * estimate or a jackknife value is not finite, or every replicate lies strictly on one
   * side of the estimate (z₀ = ±∞).
   */
  bca: Interval;
  /** Standard deviation (n − 1) of the replicates; Infinity if any replicate is infinite. */
  standardError: number;
  /** Replicates used: rounds whose value was defined (not NaN). */
  rounds: number;
  /** Rounds dropped because the statistic was NaN (e.g. 0/0) on that resample. */
  undefinedRounds: number;
  /** BCa bias correction z₀ = Φ⁻¹(share of replicates below the estimate, ties as half). */
  biasCorrection: number;
  /** BCa acceleration a from the jackknife. */
  acceleration: number;
}

/**
 * Jackknife estimate of the BCa acceleration (Efron 1987; Efron & Tibshirani 1993, "An
 * Introduction to the Bootstrap", ch. 14):
 *
 *   a = Σ(θ̄ − θ₍ᵢ₎)³ / (6·(Σ(θ̄ − θ₍ᵢ₎)²)^{3/2})
 *
 * over the leave-one-out values θ₍ᵢ₎ — the same formula scipy.stats.bootstrap uses.
 *
 * @returns 0 when all θ₍ᵢ₎ are equal (no skewness to correct, instead of 0/0); NaN when a
 *   value is not finite or there are fewer than two.
 */
export function jackknifeAcceleration(leaveOneOut: ArrayLike<number>): number {
  const count = leaveOneOut.length;
  if (count < 2) return Number.NaN;
  let total = 0;
  for (let i = 0; i < count; i++) {
    const value = leaveOneOut[i] as number;
    if (!Number.isFinite(value)) return Number.NaN;
    total += value;
  }
  const center = total / count;
  let squares = 0;
  let cubes = 0;
  for (let i = 0; i < count; i++) {
    const deviation = center - (leaveOneOut[i] as number);
    squares += deviation * deviation;
    cubes += deviation * deviation * deviation;
  }
  return squares === 0 ? 0 : cubes / (6 * squares ** 1.5);
}

/**
 * BCa bias correction z₀ = Φ⁻¹(p) with p = (#{θ* < θ̂} + ½·#{θ* = θ̂}) / B. Counting ties as
 * half follows scipy.stats.bootstrap; it matters for 0/1 data, where many replicates equal
 * the estimate exactly and counting them as "below" would bias z₀.
 */
export function biasCorrection(sortedReplicates: ArrayLike<number>, estimate: number): number {
  let below = 0;
  let ties = 0;
  for (let i = 0; i < sortedReplicates.length; i++) {
    const value = sortedReplicates[i] as number;
    if (value < estimate) below++;
    else if (value === estimate) ties++;
    else break; // sorted: nothing further can be below or equal
  }
  return normalQuantile((below + 0.5 * ties) / sortedReplicates.length);
}

/**
 * Summarises sorted replicates into the reported estimate. `sortedReplicates` holds only
 * defined values (NaN removed) in ascending order; ±Infinity may be present and sorts last
 * or first, so an interval may honestly end at ±Infinity.
 */
export function summarizeReplicates(input: {
  estimate: number;
  sortedReplicates: Float64Array;
  undefinedRounds: number;
  leaveOneOut: ArrayLike<number>;
  confidence: number;
}): BootstrapEstimate {
  const { estimate, sortedReplicates: sorted, undefinedRounds, confidence } = input;
  const used = sorted.length;
  const empty: Interval = [Number.NaN, Number.NaN];
  if (used === 0) {
    return {
      estimate,
      percentile: empty,
      bca: empty,
      standardError: Number.NaN,
      rounds: 0,
      undefinedRounds,
      biasCorrection: Number.NaN,
      acceleration: Number.NaN,
    };
  }
  const tail = (1 - confidence) / 2;
  const percentile: Interval = [quantileOfSorted(sorted, tail), quantileOfSorted(sorted, 1 - tail)];

  const z0 = Number.isFinite(estimate) ? biasCorrection(sorted, estimate) : Number.NaN;
  const acceleration = jackknifeAcceleration(input.leaveOneOut);
  let bca = empty;
  if (Number.isFinite(z0) && Number.isFinite(acceleration)) {
    // Efron (1987): read the replicates at α_adj = Φ(z₀ + (z₀ + z_α) / (1 − a(z₀ + z_α))).
    const adjusted = (level: number): number => {
      const z = normalQuantile(level);
      return normalCdf(z0 + (z0 + z) / (1 - acceleration * (z0 + z)));
    };
    bca = [quantileOfSorted(sorted, adjusted(tail)), quantileOfSorted(sorted, adjusted(1 - tail))];
  }
  return {
    estimate,
    percentile,
    bca,
    standardError: standardDeviation(sorted),
    rounds: used,
    undefinedRounds,
    biasCorrection: z0,
    acceleration,
  };
}

function standardDeviation(values: Float64Array): number {
  const count = values.length;
  if (count < 2) return Number.NaN;
  let total = 0;
  for (let i = 0; i < count; i++) total += values[i] as number;
  if (!Number.isFinite(total)) return Number.POSITIVE_INFINITY;
  const center = total / count;
  let squares = 0;
  for (let i = 0; i < count; i++) squares += ((values[i] as number) - center) ** 2;
  return Math.sqrt(squares / (count - 1));
}
