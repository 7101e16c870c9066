/**
 * The standard normal distribution: CDF and quantile function (inverse CDF).
 *
 * Both are needed for interval arithmetic (Wilson, BCa, power), where an error of 1e-9 in a
 * critical value is invisible but a hand-rolled 4-digit approximation is not.
 */

// Coefficients of Cody (1969), "Rational Chebyshev approximations for the error function",
// Mathematics of Computation 23(107), as published in his SPECFUN ANORM routine (ACM TOMS
// Algorithm 715, 1993) and used by R's pnorm.
const CODY_A = [
  2.2352520354606839287, 161.02823106855587881, 1067.6894854603709582, 18154.981253343561249,
  0.065682337918207449113,
] as const;
const CODY_B = [
  47.20258190468824187, 976.09855173777669322, 10260.932208618978205, 45507.789335026729956,
] as const;
const CODY_C = [
  0.39894151208813466764, 8.8831497943883759412, 93.506656132177855979, 597.27027639480026226,
  2494.5375852903726711, 6848.1904505362823326, 11602.651437647350124, 9842.7148383839780218,
  1.0765576773720192317e-8,
] as const;
const CODY_D = [
  22.266688044328115691, 235.38790178262499861, 1519.377599407554805, 6485.558298266760755,
  18615.571640885098091, 34900.952721145977266, 38912.003286093271411, 19685.429676859990727,
] as const;
const CODY_P = [
  0.21589853405795699, 0.1274011611602473639, 0.022235277870649807, 0.001421619193227893466,
  2.9112874951168792e-5, 0.02307344176494017303,
] as const;
const CODY_Q = [
  1.28426009614491121, 0.468238212480865118, 0.0659881378689285515, 0.00378239633202758244,
  7.29751555083966205e-5,
] as const;
const INV_SQRT_2PI = 0.398942280401432677939946059934;
const SQRT_32 = 5.656854249492380195206754896838;

/**
 * exp(−y²/2) · factor, with y² split as ⌊16y⌋²/256 + (y − ⌊16y⌋/16)(y + ⌊16y⌋/16): the first
 * square is exact in binary, so rounding y² does not cost relative accuracy in the tail.
 */
function gaussianTimes(y: number, factor: number): number {
  const head = Math.trunc(y * 16) / 16;
  const rest = (y - head) * (y + head);
  return Math.exp(-head * head * 0.5) * Math.exp(-rest * 0.5) * factor;
}

/**
 * Standard normal CDF Φ(x), by Cody's (1969) rational Chebyshev approximations in three
 * ranges (|x| ≤ 0.674, ≤ √32, beyond). Relative error near double precision across the
 * whole line, including the lower tail (Φ(−30) ≈ 4.9e-198 keeps its digits) because the
 * smaller tail is always computed directly, never as 1 − (the other tail).
 */
export function normalCdf(x: number): number {
  if (Number.isNaN(x)) return Number.NaN;
  const y = Math.abs(x);
  if (y <= 0.67448975) {
    const square = x * x;
    let numerator = CODY_A[4] * square;
    let denominator = square;
    for (let i = 0; i < 3; i++) {
      numerator = (numerator + (CODY_A[i] ?? 0)) * square;
      denominator = (denominator + (CODY_B[i] ?? 0)) * square;
    }
    return 0.5 + (x * (numerator + CODY_A[3])) / (denominator + CODY_B[3]);
  }
  let smallerTail: number;
  if (y <= SQRT_32) {
    let numerator = CODY_C[8] * y;
    let denominator = y;
    for (let i = 0; i < 7; i++) {
      numerator = (numerator + (CODY_C[i] ?? 0)) * y;
      denominator = (denominator + (CODY_D[i] ?? 0)) * y;
    }
    smallerTail = gaussianTimes(y, (numerator + CODY_C[7]) / (denominator + CODY_D[7]));
  } else if (y < 40) {
    // Asymptotic (Mills ratio) form; beyond |x| ≈ 38.5 the tail underflows to 0 anyway.
    const inverseSquare = 1 / (x * x);
    let numerator = CODY_P[5] * inverseSquare;
    let denominator = inverseSquare;
    for (let i = 0; i < 4; i++) {
      numerator = (numerator + (CODY_P[i] ?? 0)) * inverseSquare;
      denominator = (denominator + (CODY_Q[i] ?? 0)) * inverseSquare;
    }
    const correction = (inverseSquare * (numerator + CODY_P[4])) / (denominator + CODY_Q[4]);
    smallerTail = gaussianTimes(y, (INV_SQRT_2PI - correction) / y);
  } else {
    smallerTail = 0;
  }
  return x > 0 ? 1 - smallerTail : smallerTail;
}

// Coefficients of Wichura (1988), Algorithm AS 241 "The percentage points of the normal
// distribution", Applied Statistics 37(3), PPND16 (relative accuracy about 1e-16).
const A = [
  3.387132872796366608, 133.14166789178437745, 1971.5909503065514427, 13731.693765509461125,
  45921.953931549871457, 67265.770927008700853, 33430.575583588128105, 2509.0809287301226727,
] as const;
const B = [
  1, 42.313330701600911252, 687.1870074920579083, 5394.1960214247511077, 21213.794301586595867,
  39307.89580009271061, 28729.085735721942674, 5226.495278852854561,
] as const;
const C = [
  1.42343711074968357734, 4.6303378461565452959, 5.7694972214606914055, 3.64784832476320460504,
  1.27045825245236838258, 0.24178072517745061177, 0.0227238449892691845833,
  7.7454501427834140764e-4,
] as const;
const D = [
  1, 2.05319162663775882187, 1.6763848301838038494, 0.68976733498510000455,
  0.14810397642748007459, 0.0151986665636164571966, 5.475938084995344946e-4,
  1.05075007164441684324e-9,
] as const;
const E = [
  6.6579046435011037772, 5.4637849111641143699, 1.7848265399172913358, 0.29656057182850489123,
  0.026532189526576123093, 0.0012426609473880784386, 2.71155556874348757815e-5,
  2.01033439929228813265e-7,
] as const;
const F = [
  1, 0.59983220655588793769, 0.13692988092273580531, 0.0148753612908506148525,
  7.868691311456132591e-4, 1.8463183175100546818e-5, 1.4215117583164458887e-7,
  2.04426310338993978564e-15,
] as const;

/** Rational function (Σ p_i r^i) / (Σ q_i r^i) by Horner's rule, degree 7 over 7. */
function ratio(p: readonly number[], q: readonly number[], r: number): number {
  let numerator = 0;
  let denominator = 0;
  for (let i = 7; i >= 0; i--) {
    numerator = numerator * r + (p[i] ?? 0);
    denominator = denominator * r + (q[i] ?? 0);
  }
  return numerator / denominator;
}

/**
 * Standard normal quantile Φ⁻¹(p), by Wichura's AS 241 (PPND16). Returns −∞ at 0 and +∞ at 1.
 *
 * @throws RangeError if p is NaN or outside [0, 1].
 */
export function normalQuantile(p: number): number {
  if (!(p >= 0 && p <= 1)) throw new RangeError(`p must be in [0, 1], got ${p}`);
  if (p === 0) return Number.NEGATIVE_INFINITY;
  if (p === 1) return Number.POSITIVE_INFINITY;
  const q = p - 0.5;
  if (Math.abs(q) <= 0.425) {
    return q * ratio(A, B, 0.180625 - q * q);
  }
  // Tails: work with r = sqrt(−log(tail)) where the quantile is nearly linear in r.
  const r = Math.sqrt(-Math.log(q < 0 ? p : 1 - p));
  const value = r <= 5 ? ratio(C, D, r - 1.6) : ratio(E, F, r - 5);
  return q < 0 ? -value : value;
}
