import type { Interval } from './interval.js';
import { normalQuantile } from './normal.js';

/**
 * Wilson score interval for a binomial proportion (Wilson 1927, "Probable inference, the law
 * of succession, and statistical inference", JASA 22(158)): the set of p whose score test
 * does not reject, i.e. the roots of (p̂ − p)² = z² p(1 − p)/n.
 *
 * Preferred over the Wald interval p̂ ± z·√(p̂(1−p̂)/n) because it never collapses to a point
 * at 0/n or n/n and keeps near-nominal coverage for small n or rates near 0 and 1 (Brown,
 * Cai & DasGupta 2001, "Interval estimation for a binomial proportion").
 *
 * @param successes integer count in [0, trials]
 * @param trials integer count ≥ 0; with 0 trials nothing is known and [0, 1] is returned
 * @param confidence two-sided level in (0, 1), default 0.95
 * @returns [lower, upper]; lower is exactly 0 when successes = 0 and upper exactly 1 when
 *   successes = trials (the formula gives these analytically; we pin them so rounding
 *   cannot produce 1e-17 or 0.9999999999999999).
 * @throws RangeError on non-integer or out-of-range counts or confidence.
 */
export function wilsonInterval(successes: number, trials: number, confidence = 0.95): Interval {
  if (!Number.isSafeInteger(trials) || trials < 0) {
    throw new RangeError(`wilsonInterval: trials must be a non-negative integer, got ${trials}`);
  }
  if (!Number.isSafeInteger(successes) || successes < 0 || successes > trials) {
    throw new RangeError(`wilsonInterval: successes must be an integer in [0, ${trials}], got ${successes}`);
  }
  if (!(confidence > 0 && confidence < 1)) {
    throw new RangeError(`wilsonInterval: confidence must be in (0, 1), got ${confidence}`);
  }
  if (trials === 0) return [0, 1];
  const z = normalQuantile(1 - (1 - confidence) / 2);
  const z2 = z * z;
  // Roots of the quadratic written with counts, (2s + z² ± z√(z² + 4s(n − s)/n)) / (2(n + z²)),
  // which avoids forming p̂ and 1 − p̂ separately.
  const center = 2 * successes + z2;
  const spread = z * Math.sqrt(z2 + (4 * successes * (trials - successes)) / trials);
  const denominator = 2 * (trials + z2);
  const lower = successes === 0 ? 0 : Math.max(0, (center - spread) / denominator);
  const upper = successes === trials ? 1 : Math.min(1, (center + spread) / denominator);
  return [lower, upper];
}
