/** The direction audit as terminal text, pure. */
import { formatUsd } from '../pricing/format-usd.js';
import { COST_METRICS, METRIC_TITLES, type AuditMetric, type AuditResult, type MetricTrend } from './audit.js';

export function formatMetric(metric: AuditMetric, value: number | undefined): string {
  if (value === undefined) return '—';
  if (metric === 'bestofn_rate' || metric === 'pass_at_1') return `${(value * 100).toFixed(1)}%`;
  if (metric === 'retries_per_task') return value.toFixed(2);
  return Math.round(value).toLocaleString('en-US');
}

export function formatChange(trend: MetricTrend): string {
  if (trend.change === undefined) return '';
  if (trend.metric === 'bestofn_rate' || trend.metric === 'pass_at_1') return `${trend.change >= 0 ? '+' : '−'}${Math.abs(trend.change * 100).toFixed(1)} pts`;
  return Number.isFinite(trend.change) ? `${trend.change >= 0 ? '+' : '−'}${Math.abs(trend.change * 100).toFixed(0)}%` : 'from 0';
}

export function renderAuditText(a: AuditResult): string {
  const metrics = [...COST_METRICS, 'pass_at_1'] as const;
  const lines = [
    `direction audit ${a.since.slice(0, 10)} → ${a.until.slice(0, 10)}, by ${a.unit}: ${a.sources.runs} run ledgers, ${a.sources.gatewayFiles} gateway files, ${a.sources.tasks.toLocaleString('en-US')} tasks, ${a.sources.calls.toLocaleString('en-US')} calls`,
    `same-budget pass@1: n=1 run tasks at B=${a.budget === undefined ? '?' : a.budget.toLocaleString('en-US')}${a.sources.tasksMissingTokens ? `; ${a.sources.tasksMissingTokens} tasks lacked usage and are left out of tokens per task` : ''}`,
    '',
  ];
  // Money beside the tokens, when some task has a price; `≥` when some tasks of the period have none.
  const priced = a.periods.some((p) => p.costUsd !== null);
  const money = (p: AuditResult['periods'][number]): string[] => (priced ? [`${p.costUsd !== null && p.tasksPriced < p.tasks ? '≥' : ''}${formatUsd(p.costUsd)}`, formatUsd(p.costPerTaskUsd)] : []);
  const header = ['period', 'tasks', 'output length', 'tokens/task', ...(priced ? ['cost', 'cost/task'] : []), 'Best-of-N', 'retries/task', 'pass@1', 'pass@1 tasks'];
  const rows = a.periods.map((p) => {
    const values = metrics.map((m) => formatMetric(m, p.values[m]));
    return [p.period.key, p.tasks.toLocaleString('en-US'), ...values.slice(0, 2), ...money(p), ...values.slice(2), p.passTasks.toLocaleString('en-US')];
  });
  const all = [header, ...rows];
  const widths = header.map((_, i) => Math.max(...all.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]): string => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0))).join('  ');
  lines.push(line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line), '');
  lines.push(`trends (Mann–Kendall one-sided p < ${a.settings.alpha}, and a change of at least ${Math.round(a.settings.minChange * 100)}% — ${Math.round(a.settings.minRateChange * 100)} pts for rates — by Sen's slope over the window):`);
  const width = Math.max(...metrics.map((m) => METRIC_TITLES[m].length));
  for (const m of metrics) {
    const t = a.trends[m];
    const p = t.test ? `p↑=${t.test.pIncreasing.toPrecision(2)} p↓=${t.test.pDecreasing.toPrecision(2)}` : `fewer than ${a.settings.minPeriods} periods with data`;
    lines.push(`  ${METRIC_TITLES[m].padEnd(width)}  ${t.direction.padEnd(11)}  ${formatChange(t).padStart(9)}  ${p}`);
  }
  lines.push('', a.drift.flagged ? `COST DRIFT — ${a.drift.reason}` : `no cost drift (${a.drift.status}): ${a.drift.reason}`);
  return `${lines.join('\n')}\n`;
}
