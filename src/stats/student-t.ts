/**
 * Student-t quantiles for integer degrees of freedom, exactly (to bisection precision): the
 * clustered intervals hold their score at t_{G−1} rather than z because G clusters give G − 1
 * degrees of freedom to the variance (Bell & McCaffrey 2002; Cameron & Miller 2015, "A
 * practitioner's guide to cluster-robust inference", J. Human Resources 50:317–372, §VI).
 *
 * The CDF uses the finite series for integer ν (Abramowitz & Stegun 1964, 26.7.3–26.7.4):
 * with θ = atan(t/√ν), A(t|ν) = P(|T| ≤ t) is
 * - ν odd: (2/π)·(θ + sin θ·(cos θ + (2/3)cos³θ + … + (2·4⋯(ν−3))/(1·3⋯(ν−2))·cos^{ν−2}θ)),
 *   the bracket empty for ν = 1;
 * - ν even: sin θ·(1 + (1/2)cos²θ + (1·3)/(2·4)cos⁴θ + … + (1·3⋯(ν−3))/(2·4⋯(ν−2))·cos^{ν−2}θ).
 */

/** P(|T| ≤ t) for T ~ Student-t with integer ν ≥ 1 degrees of freedom and t ≥ 0. */
export function studentTCentralProbability(t: number, df: number): number {
  if (!(Number.isInteger(df) && df >= 1)) throw new RangeError(`df must be a positive integer, got ${df}`);
  if (t <= 0) return 0;
  if (!Number.isFinite(t)) return 1;
  const theta = Math.atan(t / Math.sqrt(df));
  const sin = Math.sin(theta);
  const cos = Math.cos(theta);
  const cos2 = cos * cos;
  if (df % 2 === 1) {
    if (df === 1) return (2 / Math.PI) * theta;
    let term = cos;
    let sum = cos;
    for (let k = 3; k <= df - 2; k += 2) {
      term *= ((k - 1) / k) * cos2;
      sum += term;
    }
    return (2 / Math.PI) * (theta + sin * sum);
  }
  let term = 1;
  let sum = 1;
  for (let k = 2; k <= df - 2; k += 2) {
    term *= ((k - 1) / k) * cos2;
    sum += term;
  }
  return sin * sum;
}

/**
 * The two-sided critical value t with P(|T| ≤ t) = confidence, e.g. 2.262 for 0.95 and ν = 9.
 *
 * @throws RangeError unless 0 < confidence < 1 and ν is a positive integer.
 */
export function studentTCritical(confidence: number, df: number): number {
  if (!(confidence > 0 && confidence < 1)) throw new RangeError(`confidence must be in (0, 1), got ${confidence}`);
  const key = `${confidence}:${df}`;
  const known = CRITICAL.get(key);
  if (known !== undefined) return known;
  const value = searchCritical(confidence, df);
  if (CRITICAL.size < CACHE_LIMIT) CRITICAL.set(key, value);
  return value;
}

/** Critical values already found (a coverage grid asks for the same few thousands of times). */
const CRITICAL = new Map<string, number>();
const CACHE_LIMIT = 4096;

function searchCritical(confidence: number, df: number): number {
  let lo = 0;
  let hi = 1;
  while (studentTCentralProbability(hi, df) < confidence) hi *= 2;
  for (let step = 0; step < 200 && hi - lo > 1e-13 * hi; step++) {
    const mid = (lo + hi) / 2;
    if (studentTCentralProbability(mid, df) < confidence) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}
