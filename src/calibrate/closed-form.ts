/**
 * Normal-approximation case counts to compare with the simulated one.
 *
 * `ciOnly` is `casesForPower` (paired z, Miller 2024, arXiv:2411.00640): the cases for the
 * delta's CI to exclude 0 with the target power. It ignores that `real_evolution` also needs
 * the point estimate ≥ `min_same_budget_gain` (g). With δ̂ ~ N(δ, σ²/n) the verdict fires,
 * to first order, when δ̂ ≥ max(g, z·σ/√n), so its power is Φ((δ − max(g, z·σ/√n))·√n/σ).
 * Reaching power π = Φ(z_π) then needs BOTH n ≥ ((z + z_π)·σ/δ)² (the CI rule) AND
 * n ≥ (z_π·σ/(δ − g))² (the gain rule) — `withGainGate`, the larger of the two. For δ ≤ g
 * the gain rule is met with probability ≤ ½ however many cases there are: no count.
 * Both leave out the token and latency gates and the category rule (the simulation has them).
 */
import { casesForPower, normalQuantile } from '../stats/index.js';

export interface ClosedFormInput {
  /** True population delta (probability scale). */
  effect: number;
  /** SD of one case's paired difference. */
  sdDiff: number;
  minGain: number;
  /** Two-sided confidence of the CI (0.95). */
  confidence: number;
  /** Target power (0.8). */
  power: number;
}

export interface ClosedFormCases {
  /** `casesForPower`: CI excludes 0; null when the effect is ≤ 0. */
  ciOnly: number | null;
  /** Also the point estimate ≥ min gain; null when effect ≤ min gain. */
  withGainGate: number | null;
}

export function closedFormCases(input: ClosedFormInput): ClosedFormCases {
  if (!(input.effect > 0) || !(input.sdDiff > 0)) return { ciOnly: null, withGainGate: null };
  const ciOnly = casesForPower({ delta: input.effect, sdDiff: input.sdDiff, alpha: 1 - input.confidence, power: input.power });
  if (!(input.effect > input.minGain)) return { ciOnly, withGainGate: null };
  const gainRule = Math.ceil((normalQuantile(input.power) * input.sdDiff / (input.effect - input.minGain)) ** 2);
  return { ciOnly, withGainGate: Math.max(ciOnly, gainRule) };
}
