/**
 * The direction audit (seed §7), pure: per month or week, mean output length, tokens per task,
 * Best-of-N usage rate, retries per task and same-budget pass@1; a Mann–Kendall trend test on
 * each; and the cost-drift flag.
 *
 * "Rises" means: Mann–Kendall one-sided p < α (default 0.05) for an increase AND a material
 * change over the window by Sen's slope — at least `minChange` relative (default +5%) for the
 * cost measures, at least `minRateChange` absolute (default +2 points) for the two rates. A
 * significant but negligible drift is not a rise; a large but noisy one is not either.
 *
 * Cost drift is flagged when tokens per task rises while same-budget pass@1 does not: the
 * system spends more per task and gets no better at a fixed budget. The other three cost
 * measures (output length, Best-of-N usage, retries) are reported as its drivers; when all
 * four rise it is the seed's full pattern. When pass@1 cannot be measured (no run ledgers in
 * the window) a rise in tokens is still flagged, and says so.
 */
import type { AuditData, AuditTask } from './ledger-rows.js';
import { periodOf, type Period, type PeriodUnit } from './periods.js';
import { mannKendall, type TrendTest } from './trend-test.js';

export type AuditMetric = 'output_length' | 'tokens_per_task' | 'bestofn_rate' | 'retries_per_task' | 'pass_at_1';

export const COST_METRICS: readonly AuditMetric[] = ['output_length', 'tokens_per_task', 'bestofn_rate', 'retries_per_task'];

export const METRIC_TITLES: Record<AuditMetric, string> = {
  output_length: 'mean output length (tokens)',
  tokens_per_task: 'tokens per task',
  bestofn_rate: 'Best-of-N usage rate',
  retries_per_task: 'retries per task',
  pass_at_1: 'same-budget pass@1',
};

const RATES: ReadonlySet<AuditMetric> = new Set(['bestofn_rate', 'pass_at_1']);

export interface PeriodRow {
  period: Period;
  tasks: number;
  gatewayTasks: number;
  /** n=1 run tasks at the reference budget with an outcome (the pass@1 sample). */
  passTasks: number;
  values: Record<AuditMetric, number | undefined>;
  /** Money beside the tokens (USD): Σ over the tasks with a known cost; null when none has one. */
  costUsd: number | null;
  /** Mean cost of a priced task (USD). */
  costPerTaskUsd: number | null;
  /** Tasks with a known cost (the rest had no price or no usage). */
  tasksPriced: number;
}

export interface MetricTrend {
  metric: AuditMetric;
  test: TrendTest | undefined;
  /** Sen's slope × the window: relative for cost measures, absolute for rates. */
  change: number | undefined;
  direction: 'rising' | 'falling' | 'flat' | 'insufficient';
}

export interface AuditSettings {
  since: number;
  until: number;
  unit: PeriodUnit;
  /** B of the same-budget pass@1; undefined = the budget most n=1 run tasks used. */
  budget?: number | undefined;
  alpha?: number;
  minChange?: number;
  minRateChange?: number;
  /** Fewer periods with data than this: no trend is claimed. */
  minPeriods?: number;
}

export interface AuditResult {
  since: string;
  until: string;
  unit: PeriodUnit;
  budget: number | undefined;
  periods: PeriodRow[];
  trends: Record<AuditMetric, MetricTrend>;
  drift: { status: 'cost_drift' | 'no_drift' | 'insufficient_data'; flagged: boolean; rising: AuditMetric[]; reason: string };
  settings: { alpha: number; minChange: number; minRateChange: number; minPeriods: number };
  sources: { runs: number; gatewayFiles: number; tasks: number; calls: number; tasksMissingTokens: number };
}

export function auditLedgers(data: AuditData, options: AuditSettings): AuditResult {
  const settings = { alpha: options.alpha ?? 0.05, minChange: options.minChange ?? 0.05, minRateChange: options.minRateChange ?? 0.02, minPeriods: options.minPeriods ?? 4 };
  const budget = options.budget ?? modalBudget(data.tasks);
  const rows = new Map<number, { period: Period; tasks: AuditTask[]; completion: number; outputs: number }>();
  const row = (time: number): { period: Period; tasks: AuditTask[]; completion: number; outputs: number } => {
    const period = periodOf(time, options.unit);
    let r = rows.get(period.index);
    if (!r) rows.set(period.index, (r = { period, tasks: [], completion: 0, outputs: 0 }));
    return r;
  };
  for (const task of data.tasks) row(task.time).tasks.push(task);
  for (const call of data.calls) {
    if (call.completion === undefined) continue;
    const r = row(call.time);
    r.completion += call.completion;
    r.outputs += call.outputs;
  }
  const periods = [...rows.values()].sort((a, b) => a.period.index - b.period.index).map((r): PeriodRow => {
    const known = r.tasks.filter((t) => t.tokens !== undefined);
    const pass = r.tasks.filter((t) => t.source === 'run' && t.n === 1 && t.split !== 'regression' && t.passed !== undefined && t.budget === budget);
    const priced = r.tasks.filter((t) => t.costUsd !== undefined);
    const tasks = weight(r.tasks);
    const pricedTasks = weight(priced);
    const costUsd = priced.reduce((sum, t) => sum + (t.costUsd ?? 0), 0);
    return {
      period: r.period,
      tasks,
      gatewayTasks: weight(r.tasks.filter((t) => t.source === 'gateway')),
      passTasks: weight(pass),
      values: {
        output_length: r.outputs ? r.completion / r.outputs : undefined,
        tokens_per_task: ratio(known.reduce((sum, t) => sum + (t.tokens ?? 0), 0), weight(known)),
        bestofn_rate: ratio(weight(r.tasks.filter((t) => t.n > 1)), tasks),
        retries_per_task: ratio(r.tasks.reduce((sum, t) => sum + t.retries, 0), tasks),
        pass_at_1: ratio(weight(pass.filter((t) => t.passed)), weight(pass)),
      },
      costUsd: pricedTasks ? costUsd : null,
      costPerTaskUsd: ratio(costUsd, pricedTasks) ?? null,
      tasksPriced: pricedTasks,
    };
  });
  const trends = Object.fromEntries((Object.keys(METRIC_TITLES) as AuditMetric[]).map((m) => [m, trendOf(m, periods, settings)])) as Record<AuditMetric, MetricTrend>;
  return {
    since: new Date(options.since).toISOString(),
    until: new Date(options.until).toISOString(),
    unit: options.unit,
    budget,
    periods,
    trends,
    drift: driftOf(trends),
    settings,
    sources: { runs: data.runs, gatewayFiles: data.gatewayFiles, tasks: weight(data.tasks), calls: data.calls.reduce((sum, call) => sum + (call.count ?? 1), 0), tasksMissingTokens: weight(data.tasks.filter((t) => t.tokens === undefined)) },
  };
}

function trendOf(metric: AuditMetric, periods: readonly PeriodRow[], settings: AuditResult['settings']): MetricTrend {
  const points = periods.flatMap((p) => (p.values[metric] === undefined ? [] : [{ t: p.period.index, x: p.values[metric] as number }]));
  if (points.length < settings.minPeriods) return { metric, test: undefined, change: undefined, direction: 'insufficient' };
  const test = mannKendall(points.map((p) => p.t), points.map((p) => p.x));
  if (!test) return { metric, test: undefined, change: undefined, direction: 'insufficient' };
  const span = (points.at(-1)?.t ?? 0) - (points[0]?.t ?? 0);
  const absolute = test.slope * span;
  const reference = Math.abs(test.intercept) > 1e-9 ? Math.abs(test.intercept) : Math.abs(points.reduce((a, p) => a + p.x, 0) / points.length);
  const change = RATES.has(metric) ? absolute : reference > 0 ? absolute / reference : absolute > 0 ? Number.POSITIVE_INFINITY : 0;
  const threshold = RATES.has(metric) ? settings.minRateChange : settings.minChange;
  const direction = test.pIncreasing < settings.alpha && change >= threshold ? 'rising' : test.pDecreasing < settings.alpha && change <= -threshold ? 'falling' : 'flat';
  return { metric, test, change, direction };
}

function driftOf(trends: Record<AuditMetric, MetricTrend>): AuditResult['drift'] {
  const rising = COST_METRICS.filter((m) => trends[m].direction === 'rising');
  const tokens = trends.tokens_per_task;
  const pass = trends.pass_at_1;
  const others = rising.filter((m) => m !== 'tokens_per_task').map((m) => METRIC_TITLES[m]);
  if (tokens.direction === 'insufficient') return { status: 'insufficient_data', flagged: false, rising, reason: 'too few periods with token data to test a trend' };
  if (tokens.direction === 'rising' && pass.direction !== 'rising') {
    const pattern = rising.length === COST_METRICS.length ? 'all four cost measures rise' : others.length ? `with ${others.join(', ')} rising` : 'while output length, Best-of-N usage and retries do not explain it';
    const passText = pass.direction === 'insufficient' ? 'same-budget pass@1 is not measured in this window (no run ledgers at the reference budget): nothing shows the spend bought anything' : `same-budget pass@1 is ${pass.direction}`;
    return { status: 'cost_drift', flagged: true, rising, reason: `tokens per task rise ${pct(tokens.change)} over the window (${pattern}); ${passText}. The system may be buying scores with budget, not evolving.` };
  }
  if (tokens.direction === 'rising') return { status: 'no_drift', flagged: false, rising, reason: `tokens per task rise ${pct(tokens.change)} and same-budget pass@1 rises too (${pts(pass.change)}): spend with a return — check tokens per success` };
  return { status: 'no_drift', flagged: false, rising, reason: `tokens per task are ${tokens.direction}${others.length ? `; watch: ${others.join(', ')} rising` : ''}; same-budget pass@1 is ${pass.direction}` };
}

function modalBudget(tasks: readonly AuditTask[]): number | undefined {
  const counts = new Map<number, number>();
  for (const t of tasks) if (t.source === 'run' && t.n === 1 && t.budget !== undefined) counts.set(t.budget, (counts.get(t.budget) ?? 0) + (t.count ?? 1));
  return [...counts.entries()].sort((a, b) => b[1] - a[1] || a[0] - b[0])[0]?.[0];
}

/** Tasks the rows stand for (a row of the team database stands for `count`). */
function weight(tasks: readonly AuditTask[]): number {
  return tasks.reduce((sum, t) => sum + (t.count ?? 1), 0);
}

/** A weighted mean: Σ values / Σ weights; undefined over no task. */
function ratio(sum: number, weights: number): number | undefined {
  return weights ? sum / weights : undefined;
}

function pct(x: number | undefined): string {
  return x === undefined ? '?' : Number.isFinite(x) ? `${x >= 0 ? '+' : ''}${(x * 100).toFixed(0)}%` : 'from 0';
}

function pts(x: number | undefined): string {
  return x === undefined ? '?' : `${x >= 0 ? '+' : '−'}${Math.abs(x * 100).toFixed(1)} pts`;
}
