import { normalCdf, normalQuantile } from './normal.js';

/**
 * Power analysis for the paired binary design (both configurations on the same cases),
 * by the normal approximation to the test of mean per-case difference.
 *
 * Two ways to describe the variability of per-case differences dᵢ = candidateᵢ − baselineᵢ:
 * - `sdDiff`: their standard deviation σ_d (observed from a pilot, see `pairedDifferenceSd`).
 *   Then n = ((z_{1−α/2} + z_{power}) · σ_d / δ)² — the paired-z sample size, as in the
 *   power-analysis section of Miller (2024), arXiv:2411.00640.
 * - `discordantRate`: ψ = P(the arms disagree on a case) = p₁₀ + p₀₁. Then Connor (1987),
 *   "Sample size for testing differences in proportions for the paired-sample design",
 *   Biometrics 43(1): n = (z_{1−α/2}·√ψ + z_{power}·√(ψ − δ²))² / δ², using the variance
 *   under H0 (ψ) for the critical value and under H1 (ψ − δ²) for the power.
 *
 * All tests are two-sided at level α. Effects are on the probability scale (0.05 = 5 points).
 */
export type PairedVariability =
  | { sdDiff: number; discordantRate?: undefined }
  | { discordantRate: number; sdDiff?: undefined };

export type CasesForPowerInput = PairedVariability & {
  /** Effect to detect: true mean difference candidate − baseline (sign ignored). */
  delta: number;
  /** Two-sided significance level, default 0.05. */
  alpha?: number;
  /** Target power, default 0.8; must be ≥ 0.5 for the formulas to be meaningful. */
  power?: number;
};

export type PairedPowerInput = PairedVariability & {
  /** Number of paired cases. */
  n: number;
  delta: number;
  alpha?: number;
};

export interface MinimumDetectableEffectInput {
  n: number;
  sdDiff: number;
  alpha?: number;
  power?: number;
}

function criticalValue(alpha: number): number {
  if (!(alpha > 0 && alpha < 1)) throw new RangeError(`alpha must be in (0, 1), got ${alpha}`);
  return normalQuantile(1 - alpha / 2);
}

function powerQuantile(power: number): number {
  if (!(power >= 0.5 && power < 1)) throw new RangeError(`power must be in [0.5, 1), got ${power}`);
  return normalQuantile(power);
}

/** Null and alternative standard deviations of one paired difference. */
function spreads(variability: PairedVariability, delta: number): { null: number; alternative: number } {
  if (variability.sdDiff !== undefined) {
    if (!(variability.sdDiff >= 0 && Number.isFinite(variability.sdDiff))) {
      throw new RangeError(`sdDiff must be a finite non-negative number, got ${variability.sdDiff}`);
    }
    return { null: variability.sdDiff, alternative: variability.sdDiff };
  }
  const psi = variability.discordantRate;
  if (!(psi >= 0 && psi <= 1)) throw new RangeError(`discordantRate must be in [0, 1], got ${psi}`);
  if (Math.abs(delta) > psi) {
    throw new RangeError(`|delta| (${Math.abs(delta)}) cannot exceed discordantRate (${psi})`);
  }
  return { null: Math.sqrt(psi), alternative: Math.sqrt(psi - delta * delta) };
}

function checkDelta(delta: number): number {
  if (!Number.isFinite(delta)) throw new RangeError(`delta must be finite, got ${delta}`);
  return Math.abs(delta);
}

/**
 * Paired cases needed to detect `delta` with the given power at two-sided level alpha.
 *
 * @returns a whole number of cases ≥ 1 (rounded up); Infinity when delta = 0.
 * @throws RangeError on invalid inputs, or |delta| > discordantRate.
 */
export function casesForPower(input: CasesForPowerInput): number {
  const delta = checkDelta(input.delta);
  const zAlpha = criticalValue(input.alpha ?? 0.05);
  const zPower = powerQuantile(input.power ?? 0.8);
  const sd = spreads(input, delta);
  if (delta === 0) return Number.POSITIVE_INFINITY;
  const n = ((zAlpha * sd.null + zPower * sd.alternative) / delta) ** 2;
  // Tolerate 1e-9 of rounding so an exact integer answer is not bumped by one.
  return Math.max(1, Math.ceil(n - 1e-9));
}

/**
 * Power of the two-sided paired test with n cases against a true difference `delta`:
 * Φ((|δ|√n − z·σ₀)/σ₁) + Φ((−|δ|√n − z·σ₀)/σ₁), counting rejections in both directions
 * (so power = α at δ = 0). σ₀ = σ₁ = sdDiff, or √ψ and √(ψ − δ²) for a discordant rate.
 */
export function pairedPower(input: PairedPowerInput): number {
  const delta = checkDelta(input.delta);
  if (!(Number.isFinite(input.n) && input.n > 0)) throw new RangeError(`n must be positive, got ${input.n}`);
  const z = criticalValue(input.alpha ?? 0.05);
  const sd = spreads(input, delta);
  const shift = delta * Math.sqrt(input.n);
  if (sd.alternative === 0) {
    // No sampling variance under H1: the estimate equals delta, rejected iff beyond the cut.
    return shift > z * sd.null ? 1 : 0;
  }
  return normalCdf((shift - z * sd.null) / sd.alternative) + normalCdf((-shift - z * sd.null) / sd.alternative);
}

/**
 * Smallest true difference detectable with the given power by a two-sided paired test on n
 * cases: (z_{1−α/2} + z_{power}) · sdDiff / √n.
 */
export function minimumDetectableEffect(input: MinimumDetectableEffectInput): number {
  if (!(Number.isFinite(input.n) && input.n > 0)) throw new RangeError(`n must be positive, got ${input.n}`);
  const sd = spreads({ sdDiff: input.sdDiff }, 0).null;
  return ((criticalValue(input.alpha ?? 0.05) + powerQuantile(input.power ?? 0.8)) * sd) / Math.sqrt(input.n);
}
