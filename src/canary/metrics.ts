/**
 * The four canary metrics of one set of events (a day, or all days so far), per variant and
 * canary vs control, with intervals (seed §6): same-budget pass rate, tokens_per_success, p95
 * latency, negative-feedback rate. Pure, closed form (a canary is re-analysed daily over
 * growing event sets; a bootstrap of every day's p95 would cost seconds):
 *
 * - rates: Wilson intervals (Wilson 1927); canary − control: Newcombe's hybrid score interval
 *   (Newcombe 1998, "Interval estimation for the difference between independent proportions",
 *   method 10);
 * - tokens_per_success = Σ tokens / Σ successes: the ratio estimator's delta-method variance
 *   on the log scale (Cochran 1977, "Sampling Techniques", §6.4);
 * - p95 latency: the distribution-free order-statistic interval (ranks from the binomial,
 *   normal approximation; Conover 1999, §3.2);
 * - canary / control ratios: the difference of the two logs with the variances added, each
 *   log-variance read off its own interval — Price & Bonett's (2002) construction for a ratio
 *   of medians ("Distribution-free confidence intervals for difference and ratio of medians",
 *   J. Statist. Comput. Simul. 72), applied to p95 and to tokens_per_success.
 * Production events are not paired: the two variants are independent samples.
 */
import { normalQuantile, quantileOfSorted, wilsonInterval, type Interval } from '../stats/index.js';
import type { CanaryVariant } from './assign.js';
import type { CanaryEvent } from './events.js';

export interface Estimate {
  value: number;
  ci: Interval;
}

export interface VariantMetrics {
  events: number;
  /** Events at the policy's (budget, n) with a known outcome: the same-budget pass-rate sample. */
  sameBudgetEvents: number;
  passRate: Estimate | undefined;
  tokensPerSuccess: Estimate | undefined;
  p95LatencyMs: Estimate | undefined;
  feedbackEvents: number;
  negativeFeedbackRate: Estimate | undefined;
}

export interface MetricComparison {
  /** canary − control. */
  passRateDelta: Estimate | undefined;
  /** canary / control. */
  tokensPerSuccessRatio: Estimate | undefined;
  /** canary / control. */
  p95LatencyRatio: Estimate | undefined;
  /** canary − control. */
  negativeFeedbackDelta: Estimate | undefined;
}

export interface GroupMetrics {
  control: VariantMetrics;
  canary: VariantMetrics;
  comparison: MetricComparison;
}

export interface MetricSettings {
  budget: number;
  n: number;
  confidence: number;
}

export function groupMetrics(events: readonly CanaryEvent[], settings: MetricSettings): GroupMetrics {
  const of = (variant: CanaryVariant): CanaryEvent[] => events.filter((e) => e.variant === variant);
  const control = of('control');
  const canary = of('canary');
  const z = normalQuantile(1 - (1 - settings.confidence) / 2);
  const spendA = spendOf(control, z);
  const spendB = spendOf(canary, z);
  const pass = (list: CanaryEvent[]): { passes: number; trials: number } => {
    const sample = list.filter((e) => e.budget === settings.budget && e.n === settings.n && e.passed !== undefined);
    return { passes: sample.filter((e) => e.passed).length, trials: sample.length };
  };
  const negative = (list: CanaryEvent[]): { passes: number; trials: number } => {
    const sample = list.filter((e) => e.feedback !== undefined);
    return { passes: sample.filter((e) => e.feedback === 'negative').length, trials: sample.length };
  };
  const variant = (list: CanaryEvent[], spend: Spend): VariantMetrics => {
    const p = pass(list);
    const f = negative(list);
    return {
      events: list.length,
      sameBudgetEvents: p.trials,
      passRate: rate(p, settings.confidence),
      tokensPerSuccess: spend.tokensPerSuccess?.estimate,
      p95LatencyMs: spend.p95?.estimate,
      feedbackEvents: f.trials,
      negativeFeedbackRate: rate(f, settings.confidence),
    };
  };
  return {
    control: variant(control, spendA),
    canary: variant(canary, spendB),
    comparison: {
      passRateDelta: newcombe(pass(control), pass(canary), settings.confidence),
      tokensPerSuccessRatio: logRatio(spendA.tokensPerSuccess, spendB.tokensPerSuccess, z),
      p95LatencyRatio: logRatio(spendA.p95, spendB.p95, z),
      negativeFeedbackDelta: newcombe(negative(control), negative(canary), settings.confidence),
    },
  };
}

function rate(count: { passes: number; trials: number }, confidence: number): Estimate | undefined {
  if (count.trials === 0) return undefined;
  return { value: count.passes / count.trials, ci: wilsonInterval(count.passes, count.trials, confidence) };
}

/** Newcombe's method 10 for p₂ − p₁ (canary − control) from the two Wilson intervals. */
export function newcombe(first: { passes: number; trials: number }, second: { passes: number; trials: number }, confidence: number): Estimate | undefined {
  if (first.trials === 0 || second.trials === 0) return undefined;
  const p1 = first.passes / first.trials;
  const p2 = second.passes / second.trials;
  const [l1, u1] = wilsonInterval(first.passes, first.trials, confidence);
  const [l2, u2] = wilsonInterval(second.passes, second.trials, confidence);
  const delta = p2 - p1;
  return { value: delta, ci: [delta - Math.sqrt((p2 - l2) ** 2 + (u1 - p1) ** 2), delta + Math.sqrt((u2 - p2) ** 2 + (p1 - l1) ** 2)] };
}

/** A positive estimate, its interval, and the standard error of its logarithm. */
interface LogEstimate {
  estimate: Estimate;
  logSe: number;
}

interface Spend {
  tokensPerSuccess: LogEstimate | undefined;
  p95: LogEstimate | undefined;
}

function spendOf(events: readonly CanaryEvent[], z: number): Spend {
  return { tokensPerSuccess: tokensPerSuccess(events, z), p95: p95Latency(events, z) };
}

/** Σ tokens / Σ successes over events with a known outcome; undefined with no success. */
function tokensPerSuccess(events: readonly CanaryEvent[], z: number): LogEstimate | undefined {
  const known = events.filter((e) => e.passed !== undefined);
  const m = known.length;
  const wins = known.filter((e) => e.passed).length;
  if (m < 2 || wins === 0) return undefined;
  const t = known.reduce((acc, e) => acc + e.tokens, 0) / m;
  const w = wins / m;
  if (t === 0) return undefined;
  let vt = 0;
  let vw = 0;
  let cov = 0;
  for (const e of known) {
    const dt = e.tokens - t;
    const dw = (e.passed ? 1 : 0) - w;
    vt += dt * dt;
    vw += dw * dw;
    cov += dt * dw;
  }
  // Var(log(t̄/w̄)) ≈ [s_t²/t̄² + s_w²/w̄² − 2 s_tw/(t̄ w̄)] / m (delta method).
  const variance = (vt / (t * t) + vw / (w * w) - (2 * cov) / (t * w)) / ((m - 1) * m);
  const logSe = Math.sqrt(Math.max(variance, 0));
  const value = t / w;
  return { estimate: { value, ci: [value * Math.exp(-z * logSe), value * Math.exp(z * logSe)] }, logSe };
}

/** p95 with the order-statistic interval; its log-SE from that interval's width. */
function p95Latency(events: readonly CanaryEvent[], z: number): LogEstimate | undefined {
  const m = events.length;
  if (m < 2) return undefined;
  const sorted = Float64Array.from(events, (e) => e.latencyMs).sort();
  const value = quantileOfSorted(sorted, 0.95);
  const half = z * Math.sqrt(m * 0.95 * 0.05);
  const lower = sorted[Math.max(0, Math.floor(m * 0.95 - half) - 1)] as number;
  const upper = sorted[Math.min(m - 1, Math.ceil(m * 0.95 + half) - 1)] as number;
  if (!(value > 0 && lower > 0)) return undefined;
  return { estimate: { value, ci: [lower, upper] }, logSe: (Math.log(upper) - Math.log(lower)) / (2 * z) };
}

/** canary / control from two independent log-scale estimates. */
function logRatio(control: LogEstimate | undefined, canary: LogEstimate | undefined, z: number): Estimate | undefined {
  if (!control || !canary) return undefined;
  const value = canary.estimate.value / control.estimate.value;
  const se = Math.hypot(control.logSe, canary.logSe);
  return { value, ci: [value * Math.exp(-z * se), value * Math.exp(z * se)] };
}
