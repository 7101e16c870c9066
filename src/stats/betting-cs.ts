/**
 * Anytime-valid bounds for the mean of a bounded stream, by betting: Waudby-Smith & Ramdas
 * (2024), "Estimating means of bounded random variables by betting", JRSS-B 86(1):1–27,
 * arXiv:2010.09686.
 *
 * Observations x₁, x₂, … lie in [0, 1] with conditional mean μ. A gambler who bets λᵢ on
 * xᵢ − m, with λᵢ chosen from x₁..xᵢ₋₁ only (predictable), holds the capital
 *   lower side:  Kₜ(m) = ∏ᵢ₌₁..ₜ (1 + λᵢ·(xᵢ − m)),   0 ≤ λᵢ ≤ c/m
 *   upper side:  Kₜ(m) = ∏ᵢ₌₁..ₜ (1 − λᵢ·(xᵢ − m)),   0 ≤ λᵢ ≤ c/(1 − m)
 * (c < 1 keeps every factor ≥ 1 − c > 0). The lower-side capital is a non-negative
 * supermartingale whenever μ ≤ m, the upper-side one whenever μ ≥ m, so Ville's inequality
 * gives P(∃t: Kₜ(m) ≥ 1/a) ≤ a. The level-(1 − a) lower bound is therefore the smallest m
 * the capital has not yet ruled out, and it holds at every t at once — at any stopping time,
 * however the looks were chosen. Bounds are kept as a running intersection over the times
 * they are read (also valid, WSR 2024): the largest lower bound and smallest upper bound so far.
 *
 * Two-sided: a lower and an upper bound at a = α/2 each is WSR's hedged capital process with
 * θ = 1/2, since max(½K⁺, ½K⁻) ≥ 1/α ⇔ K⁺ ≥ 2/α or K⁻ ≥ 2/α.
 *
 * Bets: WSR's predictable plug-in, in the form tuned to a planned sample size n (the fixed-n
 * bets of the authors' confseq package, `lambda_predmix_eb(fixed_n=n)`),
 *   λᵢ = min(√(2·log(1/a) / (n·σ̂²ᵢ₋₁)), c/m)          (c/(1 − m) on the upper side),
 *   μ̂ₜ = (1/2 + Σⱼ≤ₜ xⱼ)/(t + 1),  σ̂²ₜ = (1/4 + Σⱼ≤ₜ (xⱼ − μ̂ⱼ)²)/(t + 1),  σ̂²₀ = 1/4,
 * with c = 1/2 (WSR's choice). Validity holds for any predictable bets; tuning them to the
 * split size makes the bound tightest by the end of the split instead of early (the t·log t
 * schedule of WSR's anytime bets spends its evidence on the first cases, which a screening
 * run with a known number of cases does not need). The bets depend on m only through the
 * truncation, so each capital is monotone in m (decreasing on the lower side, increasing on
 * the upper) and a bound is found by bisection.
 */

export type BoundSide = 'lower' | 'upper';

export interface BetSchedule {
  /** Miscoverage a of the one-sided bound (0 < a < 1): the bound holds with probability ≥ 1 − a at every time. */
  alpha: number;
  /** Sample size the bets are tuned for (observations); any positive number keeps validity. */
  horizon: number;
  /** Truncation c in (0, 1) of λ at c/m (lower) or c/(1 − m) (upper); default 1/2. */
  truncation?: number;
}

const DEFAULT_TRUNCATION = 0.5;
const BISECTION_STEPS = 60;

/** WSR's regularized running mean and variance (one fake observation at 1/2 with variance 1/4). */
export class PlugInMoments {
  private count = 0;
  private sum = 0.5;
  private squares = 0.25;
  /** σ̂²ₜ after the observations added so far (σ̂²₀ = 1/4 before any). */
  variance = 0.25;

  add(x: number): void {
    this.count += 1;
    this.sum += x;
    const mean = this.sum / (this.count + 1);
    this.squares += (x - mean) ** 2;
    this.variance = this.squares / (this.count + 1);
  }
}

/** The untruncated bet √(2·log(1/a)/(n·σ̂²)) for the variance seen before the observation. */
export function plugInBet(schedule: BetSchedule, previousVariance: number): number {
  return Math.sqrt((2 * Math.log(1 / schedule.alpha)) / (schedule.horizon * previousVariance));
}

/** The largest bet that keeps every factor positive at m: c/m (lower) or c/(1 − m) (upper). */
export function betCap(side: BoundSide, m: number, truncation = DEFAULT_TRUNCATION): number {
  const room = side === 'lower' ? m : 1 - m;
  return room <= 0 ? Number.POSITIVE_INFINITY : truncation / room;
}

/** One capital process at a fixed m, updated one observation at a time. */
export class CapitalProcess {
  private readonly cap: number;
  private readonly sign: 1 | -1;
  /** log Kₜ(m). */
  logCapital = 0;

  constructor(readonly side: BoundSide, readonly m: number, readonly schedule: BetSchedule) {
    checkSchedule(schedule);
    if (!(m >= 0 && m <= 1)) throw new RangeError(`m must be in [0, 1], got ${m}`);
    this.cap = betCap(side, m, schedule.truncation);
    this.sign = side === 'lower' ? 1 : -1;
  }

  /** Adds x ∈ [0, 1]; `previousVariance` is σ̂² before x (PlugInMoments.variance before add). */
  add(x: number, previousVariance: number): void {
    const bet = Math.min(plugInBet(this.schedule, previousVariance), this.cap);
    this.logCapital += Math.log1p(this.sign * bet * (x - this.m));
  }

  /** Whether the capital has reached 1/a: m is ruled out at level 1 − a. */
  get rejects(): boolean {
    return this.logCapital >= Math.log(1 / this.schedule.alpha);
  }
}

/** log Kₜ(m) over the whole of `xs`, computed from scratch (the reference the incremental class must match). */
export function logCapital(xs: ArrayLike<number>, m: number, side: BoundSide, schedule: BetSchedule): number {
  const process = new CapitalProcess(side, m, schedule);
  const moments = new PlugInMoments();
  for (let i = 0; i < xs.length; i += 1) {
    const x = xs[i] as number;
    process.add(x, moments.variance);
    moments.add(x);
  }
  return process.logCapital;
}

/**
 * The level-(1 − a) bound after the first `length` observations of `xs` (all of them by
 * default), without running intersection: lower = inf{m : Kₜ(m) < 1/a}, upper =
 * sup{m : Kₜ(m) < 1/a}, by bisection on the monotone capital. With no observation the
 * bound is the trivial 0 (lower) or 1 (upper).
 */
export function bettingBound(xs: ArrayLike<number>, side: BoundSide, schedule: BetSchedule, length = xs.length): number {
  const prefix = Array.prototype.slice.call(xs, 0, length) as number[];
  const threshold = Math.log(1 / schedule.alpha);
  const ruledOut = (m: number): boolean => logCapital(prefix, m, side, schedule) >= threshold;
  // Lower side: ruled out on [0, bound), kept on (bound, 1]. Upper side: the mirror image.
  let kept = side === 'lower' ? 1 : 0;
  let out = side === 'lower' ? 0 : 1;
  if (!ruledOut(out)) return out;
  if (ruledOut(kept)) return kept;
  for (let step = 0; step < BISECTION_STEPS; step += 1) {
    const middle = (kept + out) / 2;
    if (ruledOut(middle)) out = middle;
    else kept = middle;
  }
  // The last m known to be ruled out: rounding never makes the bound claim more than it has.
  return out;
}

/**
 * The running intersection of the bound read at each of `looks` (observation counts, each
 * ≤ xs.length): the largest lower bound, or the smallest upper bound, over those times.
 */
export function runningBound(xs: ArrayLike<number>, side: BoundSide, schedule: BetSchedule, looks: readonly number[]): number {
  let bound = side === 'lower' ? 0 : 1;
  for (const length of looks) {
    if (length > xs.length) throw new RangeError(`look at ${length} observations, only ${xs.length} given`);
    const at = bettingBound(xs, side, schedule, length);
    bound = side === 'lower' ? Math.max(bound, at) : Math.min(bound, at);
  }
  return bound;
}

function checkSchedule(schedule: BetSchedule): void {
  if (!(schedule.alpha > 0 && schedule.alpha < 1)) throw new RangeError(`alpha must be in (0, 1), got ${schedule.alpha}`);
  if (!(schedule.horizon > 0)) throw new RangeError(`horizon must be positive, got ${schedule.horizon}`);
  const c = schedule.truncation ?? DEFAULT_TRUNCATION;
  if (!(c > 0 && c < 1)) throw new RangeError(`truncation must be in (0, 1), got ${c}`);
}
