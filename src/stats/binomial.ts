/**
 * Binomial probabilities that stay accurate for large n, following Loader (2000), "Fast and
 * accurate computation of binomial probabilities" (the algorithm behind R's dbinom).
 *
 * Why not lgamma: log C(n, x) = lgamma(n+1) − lgamma(x+1) − lgamma(n−x+1) subtracts numbers
 * near 1e7 at n = 1e6, losing ~9 digits. Loader writes the pmf with Stirling-series errors
 * and a deviance term that are small by construction, so nothing large cancels.
 */

// stirlerr(k) = log(k!) − (k + ½)·log k + k − log √(2π) for k = 1..15 (mpmath, 40 digits);
// the asymptotic series is not accurate enough below 16.
const STIRLING_ERROR_TABLE = [
  0, 0.08106146679532725822, 0.041340695955409294094, 0.027677925684998339149,
  0.020790672103765093112, 0.016644691189821192163, 0.013876128823070747999,
  0.011896709945891770095, 0.010411265261972096497, 0.0092554621827127329177,
  0.0083305634333628712565, 0.007573675487951840795, 0.0069428401072095298657,
  0.0064089941880042070684, 0.0059513701127588477356, 0.005554733551962801371,
] as const;

/** Error of Stirling's formula for log(k!), for integers k ≥ 1. */
function stirlingError(k: number): number {
  if (k <= 15) return STIRLING_ERROR_TABLE[k] ?? 0;
  // 1/(12k) − 1/(360k³) + 1/(1260k⁵) − …, truncated where the next term is below 1 ulp.
  const k2 = k * k;
  if (k > 500) return (1 / 12 - 1 / 360 / k2) / k;
  if (k > 80) return (1 / 12 - (1 / 360 - 1 / 1260 / k2) / k2) / k;
  if (k > 35) return (1 / 12 - (1 / 360 - (1 / 1260 - 1 / 1680 / k2) / k2) / k2) / k;
  return (1 / 12 - (1 / 360 - (1 / 1260 - (1 / 1680 - 1 / 1188 / k2) / k2) / k2) / k2) / k;
}

/**
 * Deviance term x·log(x/m) + m − x, computed by its series in v = (x−m)/(x+m) when x ≈ m,
 * where the direct formula cancels catastrophically.
 */
function deviance(x: number, m: number): number {
  if (Math.abs(x - m) < 0.1 * (x + m)) {
    let v = (x - m) / (x + m);
    let sum = (x - m) * v;
    let term = 2 * x * v;
    v *= v;
    for (let j = 1; j < 1000; j++) {
      term *= v;
      const next = sum + term / (2 * j + 1);
      if (next === sum) return next;
      sum = next;
    }
  }
  return x * Math.log(x / m) + m - x;
}

function validate(x: number, n: number, p: number): void {
  if (!Number.isSafeInteger(n) || n < 0) throw new RangeError(`n must be a non-negative integer, got ${n}`);
  if (!Number.isSafeInteger(x)) throw new RangeError(`x must be an integer, got ${x}`);
  if (!(p >= 0 && p <= 1)) throw new RangeError(`p must be in [0, 1], got ${p}`);
}

/** log P(X = x) for X ~ Binomial(n, p), accurate to near double precision for any n. */
export function binomialLogPmf(x: number, n: number, p: number): number {
  validate(x, n, p);
  if (x < 0 || x > n) return Number.NEGATIVE_INFINITY;
  const q = 1 - p;
  if (p === 0) return x === 0 ? 0 : Number.NEGATIVE_INFINITY;
  if (q === 0) return x === n ? 0 : Number.NEGATIVE_INFINITY;
  if (x === 0) return n === 0 ? 0 : p < 0.1 ? -deviance(n, n * q) - n * p : n * Math.log(q);
  if (x === n) return q < 0.1 ? -deviance(n, n * p) - n * q : n * Math.log(p);
  const logCore =
    stirlingError(n) - stirlingError(x) - stirlingError(n - x) - deviance(x, n * p) - deviance(n - x, n * q);
  const logScale = Math.log(2 * Math.PI) + Math.log(x) + Math.log1p(-x / n);
  return logCore - 0.5 * logScale;
}

/**
 * P(X ≤ x) for X ~ Binomial(n, p).
 *
 * Sums pmf terms outward from x, away from the mode, by the exact ratio
 * pmf(i−1)/pmf(i) = i·q / ((n−i+1)·p), so terms shrink and the sum stops once they fall below
 * 1e-17 of it — O(√n) terms at worst, never O(n) lgamma calls. When x is above the mean the
 * complement P(X > x) is summed instead, so the loop always walks into a tail.
 */
export function binomialCdf(x: number, n: number, p: number): number {
  validate(x, n, p);
  if (x < 0) return 0;
  if (x >= n) return 1;
  if (x < n * p) return lowerTail(x, n, p);
  return 1 - upperTail(x + 1, n, p);
}

function lowerTail(x: number, n: number, p: number): number {
  const step = (1 - p) / p;
  let term = 1;
  let sum = 1;
  for (let i = x; i > 0 && term > sum * 1e-17; i--) {
    term *= (i / (n - i + 1)) * step;
    sum += term;
  }
  return Math.exp(binomialLogPmf(x, n, p)) * sum;
}

function upperTail(x: number, n: number, p: number): number {
  const step = p / (1 - p);
  let term = 1;
  let sum = 1;
  for (let i = x; i < n && term > sum * 1e-17; i++) {
    term *= ((n - i) / (i + 1)) * step;
    sum += term;
  }
  return Math.exp(binomialLogPmf(x, n, p)) * sum;
}
