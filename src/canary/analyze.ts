/**
 * Canary analysis (seed §6), pure: the four metrics per day and cumulatively, every P0
 * threshold checked on both, and the decision —
 * - `rollback` as soon as any P0 threshold is breached (on a day, or cumulatively), naming it;
 * - `promote` after the policy's days with no breach;
 * - `continue` otherwise.
 * A breach needs both: the point estimate past the threshold AND the interval excluding "no
 * harm" (canary significantly worse than control). The first guards against rolling back for
 * a trivial but significant change, the second against rolling back on noise.
 * A canary looks many times — 4 metrics, each day and the running total, for every planned
 * day — so each look's interval is Bonferroni-adjusted over all of them: a canary with no
 * real change is rolled back with probability at most 1 − confidence over its whole life, not
 * per look (with 56 unadjusted looks at 95% it would be rolled back most of the time).
 */
import type { Interval } from '../stats/index.js';
import type { CanaryEvent } from './events.js';
import { summarizeFailures, type FailureSummary } from './failures.js';
import { groupMetrics, type GroupMetrics, type MetricSettings } from './metrics.js';
import type { CanaryPolicy } from './policy.js';

export type CanaryMetric = 'same_budget_pass_rate' | 'tokens_per_success' | 'p95_latency' | 'negative_feedback_rate';
export type CanaryDecision = 'continue' | 'rollback' | 'promote';

export interface Breach {
  metric: CanaryMetric;
  scope: 'day' | 'cumulative';
  day: number;
  date: string;
  /** canary − control (rates) or canary / control (ratios). */
  value: number;
  ci: Interval;
  threshold: number;
  detail: string;
}

export interface DayReport {
  day: number;
  date: string;
  daily: GroupMetrics;
  /** Every event from day 1 through this day. */
  cumulative: GroupMetrics;
  /** Whether each variant had `min_events` this day (else the day's own checks are skipped). */
  dailyChecked: boolean;
  cumulativeChecked: boolean;
  breaches: Breach[];
}

export interface CanaryAnalysis {
  policy: CanaryPolicy;
  /** B and n of the same-budget pass rate. */
  budget: number;
  /** Confidence of every interval shown and checked: the policy's, Bonferroni over all looks. */
  lookConfidence: number;
  looks: number;
  n: number;
  firstDate: string;
  days: DayReport[];
  /** Calendar days from the first event to the last, inclusive. */
  daysObserved: number;
  breaches: Breach[];
  failures: FailureSummary;
  decision: CanaryDecision;
  reason: string;
}

const DAY_MS = 86_400_000;
const METRICS = 4;

export function analyzeCanary(events: readonly CanaryEvent[], policy: CanaryPolicy): CanaryAnalysis {
  const sorted = [...events].sort((a, b) => a.time - b.time);
  const budget = policy.budget ?? modalBudget(sorted, policy.n);
  const start = Math.floor((sorted[0]?.time ?? 0) / DAY_MS);
  const byDay = new Map<number, CanaryEvent[]>();
  for (const e of sorted) {
    const day = Math.floor(e.time / DAY_MS) - start + 1;
    const list = byDay.get(day);
    if (list) list.push(e);
    else byDay.set(day, [e]);
  }
  const span = Math.max(...byDay.keys(), 0);
  const looks = METRICS * 2 * Math.max(policy.days, span);
  const lookConfidence = 1 - (1 - policy.confidence) / looks;
  const settings: MetricSettings = { budget, n: policy.n, confidence: lookConfidence };
  const days: DayReport[] = [];
  const sofar: CanaryEvent[] = [];
  for (const day of [...byDay.keys()].sort((a, b) => a - b)) {
    const today = byDay.get(day) ?? [];
    sofar.push(...today);
    const date = new Date((start + day - 1) * DAY_MS).toISOString().slice(0, 10);
    const daily = groupMetrics(today, settings);
    const cumulative = groupMetrics(sofar, settings);
    const enough = (g: GroupMetrics): boolean => g.control.events >= policy.minEvents && g.canary.events >= policy.minEvents;
    const breaches = [...(enough(daily) ? checkP0(daily, policy, 'day', day, date) : []), ...(enough(cumulative) ? checkP0(cumulative, policy, 'cumulative', day, date) : [])];
    days.push({ day, date, daily, cumulative, dailyChecked: enough(daily), cumulativeChecked: enough(cumulative), breaches });
  }
  const last = days.at(-1);
  const daysObserved = last?.day ?? 0;
  const breaches = days.flatMap((d) => d.breaches);
  const failures = summarizeFailures(sorted);
  const { decision, reason } = decide(days, breaches, daysObserved, policy);
  return { policy, budget, lookConfidence, looks, n: policy.n, firstDate: days[0]?.date ?? '', days, daysObserved, breaches, failures, decision, reason };
}

function decide(days: readonly DayReport[], breaches: readonly Breach[], observed: number, policy: CanaryPolicy): { decision: CanaryDecision; reason: string } {
  const first = breaches[0];
  if (first) {
    const sameDay = breaches.filter((b) => b.day === first.day);
    const metrics = [...new Set(sameDay.map((b) => b.metric))];
    return { decision: 'rollback', reason: `P0 breach of ${metrics.join(', ')} on day ${first.day} (${first.date}): ${sameDay.map((b) => `${b.detail} [${b.scope}]`).join('; ')}` };
  }
  const last = days.at(-1);
  if (observed >= policy.days && last?.cumulativeChecked) {
    return { decision: 'promote', reason: `${observed} days observed (policy: ${policy.days}), no P0 threshold breached on any day or cumulatively` };
  }
  if (observed >= policy.days) return { decision: 'continue', reason: `${observed} days observed but fewer than ${policy.minEvents} events in a variant: not enough evidence to promote` };
  return { decision: 'continue', reason: `day ${observed} of ${policy.days}, no P0 threshold breached so far` };
}

function checkP0(g: GroupMetrics, policy: CanaryPolicy, scope: Breach['scope'], day: number, date: string): Breach[] {
  const out: Breach[] = [];
  const c = g.comparison;
  const p0 = policy.p0;
  const pts = (x: number): string => `${x >= 0 ? '+' : '−'}${Math.abs(x * 100).toFixed(1)} pts`;
  const times = (x: number): string => `×${x.toFixed(2)}`;
  const add = (metric: CanaryMetric, value: number, ci: Interval, threshold: number, detail: string): void => {
    out.push({ metric, scope, day, date, value, ci, threshold, detail });
  };
  if (c.passRateDelta && c.passRateDelta.value < -p0.passRateDrop && c.passRateDelta.ci[1] < 0) {
    add('same_budget_pass_rate', c.passRateDelta.value, c.passRateDelta.ci, -p0.passRateDrop, `same-budget pass rate canary − control ${pts(c.passRateDelta.value)} [${pts(c.passRateDelta.ci[0])}, ${pts(c.passRateDelta.ci[1])}] below −${(p0.passRateDrop * 100).toFixed(1)} pts`);
  }
  if (c.tokensPerSuccessRatio && c.tokensPerSuccessRatio.value > p0.tokensPerSuccessGrowth && c.tokensPerSuccessRatio.ci[0] > 1) {
    add('tokens_per_success', c.tokensPerSuccessRatio.value, c.tokensPerSuccessRatio.ci, p0.tokensPerSuccessGrowth, `tokens_per_success canary/control ${times(c.tokensPerSuccessRatio.value)} [${times(c.tokensPerSuccessRatio.ci[0])}, ${times(c.tokensPerSuccessRatio.ci[1])}] above ${times(p0.tokensPerSuccessGrowth)}`);
  }
  if (c.p95LatencyRatio && c.p95LatencyRatio.value > p0.p95LatencyGrowth && c.p95LatencyRatio.ci[0] > 1) {
    add('p95_latency', c.p95LatencyRatio.value, c.p95LatencyRatio.ci, p0.p95LatencyGrowth, `p95 latency canary/control ${times(c.p95LatencyRatio.value)} [${times(c.p95LatencyRatio.ci[0])}, ${times(c.p95LatencyRatio.ci[1])}] above ${times(p0.p95LatencyGrowth)}`);
  }
  if (c.negativeFeedbackDelta && c.negativeFeedbackDelta.value > p0.negativeFeedbackIncrease && c.negativeFeedbackDelta.ci[0] > 0) {
    add('negative_feedback_rate', c.negativeFeedbackDelta.value, c.negativeFeedbackDelta.ci, p0.negativeFeedbackIncrease, `negative-feedback rate canary − control ${pts(c.negativeFeedbackDelta.value)} [${pts(c.negativeFeedbackDelta.ci[0])}, ${pts(c.negativeFeedbackDelta.ci[1])}] above +${(p0.negativeFeedbackIncrease * 100).toFixed(1)} pts`);
  }
  return out;
}

/** The budget most control events at n ran under (the production default). */
function modalBudget(events: readonly CanaryEvent[], n: number): number {
  const counts = new Map<number, number>();
  const pool = events.filter((e) => e.variant === 'control' && e.n === n);
  for (const e of pool.length ? pool : events) counts.set(e.budget, (counts.get(e.budget) ?? 0) + 1);
  return [...counts.entries()].sort((a, b) => b[1] - a[1] || a[0] - b[0])[0]?.[0] ?? 0;
}
