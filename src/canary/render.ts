/** Canary analysis as terminal text, pure. */
import type { CanaryAnalysis } from './analyze.js';
import type { FailureLabel } from './failures.js';
import type { Estimate, GroupMetrics } from './metrics.js';

const pct = (x: number | undefined): string => (x === undefined ? '—' : `${(x * 100).toFixed(1)}%`);
const pts = (x: number): string => `${x >= 0 ? '+' : '−'}${Math.abs(x * 100).toFixed(1)}`;
const times = (x: number): string => (Number.isFinite(x) ? `×${x.toFixed(2)}` : '×∞');
const num = (x: number | undefined): string => (x === undefined || !Number.isFinite(x) ? '—' : Math.round(x).toLocaleString('en-US'));

const LABELS: Record<FailureLabel, string> = {
  sampling_randomness: 'sampling randomness (failed only at a smaller n, gone at its largest n)',
  persistent: 'persistent (still fails at its largest n: diagnose next round)',
  unretried: 'not retried at a larger n (cannot tell)',
};

export function renderCanary(a: CanaryAnalysis): string {
  const p = a.policy;
  const lines = [
    `canary analysis: ${a.firstDate} onward, day ${a.daysObserved} of ${p.days}; same-budget pass rate at B=${a.budget.toLocaleString('en-US')}, n=${a.n}`,
    `P0 thresholds (each must also be significant: intervals at ${(a.lookConfidence * 100).toFixed(2)}%, ${Math.round(p.confidence * 100)}% Bonferroni-adjusted over ${a.looks} looks): pass rate −${(p.p0.passRateDrop * 100).toFixed(1)} pts · tokens/success ×${p.p0.tokensPerSuccessGrowth} · p95 latency ×${p.p0.p95LatencyGrowth} · negative feedback +${(p.p0.negativeFeedbackIncrease * 100).toFixed(1)} pts`,
    '',
  ];
  const header = ['day', 'date', 'events ctl/can', 'pass rate ctl → can', 'Δ pts [CI]', 'tokens/success ctl → can', '× [CI]', 'p95 ms ctl → can', '× [CI]', 'neg. feedback ctl → can', 'Δ pts [CI]', 'P0'];
  const rows: string[][] = [];
  for (const d of a.days) {
    rows.push(row(String(d.day), d.date, d.daily, d.dailyChecked ? d.breaches.filter((b) => b.scope === 'day').map((b) => b.metric).join(',') || 'ok' : 'too few events'));
    rows.push(row('', `  through day ${d.day}`, d.cumulative, d.cumulativeChecked ? d.breaches.filter((b) => b.scope === 'cumulative').map((b) => b.metric).join(',') || 'ok' : 'too few events'));
  }
  lines.push(table(header, rows), '');
  const f = a.failures;
  if (f.byBudgetAndN.length) {
    lines.push('failures by budget and n:');
    for (const c of f.byBudgetAndN) lines.push(`  ${c.variant.padEnd(7)} B=${c.budget.toLocaleString('en-US')} n=${c.n}: ${c.failures} of ${c.events} failed (${pct(c.failures / c.events)})`);
    if (f.withoutCase) lines.push(`  ${f.withoutCase} failed events carry no case_id and cannot be followed across n`);
    lines.push('');
  }
  if (f.cases.length) {
    lines.push(`failed cases (${f.cases.length}):`);
    for (const label of ['persistent', 'sampling_randomness', 'unretried'] as const) {
      const list = f.cases.filter((c) => c.label === label);
      if (list.length === 0) continue;
      lines.push(`  ${list.length} ${LABELS[label]}`);
      for (const c of list.slice(0, 8)) lines.push(`    ${c.caseId} (${c.variant}): failed at ${c.failures.map((x) => `n=${x.n} B=${x.budget.toLocaleString('en-US')}`).join(', ')}; largest n seen ${c.maxN}`);
      if (list.length > 8) lines.push(`    … ${list.length - 8} more`);
    }
    lines.push('');
  }
  lines.push(`decision: ${a.decision.toUpperCase()} — ${a.reason}`);
  return `${lines.join('\n')}\n`;
}

function row(day: string, date: string, g: GroupMetrics, p0: string): string[] {
  const c = g.comparison;
  const delta = (e: Estimate | undefined): string => (e ? `${pts(e.value)} [${pts(e.ci[0])}, ${pts(e.ci[1])}]` : '—');
  const ratio = (e: Estimate | undefined): string => (e ? `${times(e.value)} [${times(e.ci[0])}, ${times(e.ci[1])}]` : '—');
  return [
    day,
    date,
    `${g.control.events}/${g.canary.events}`,
    `${pct(g.control.passRate?.value)} → ${pct(g.canary.passRate?.value)}`,
    delta(c.passRateDelta),
    `${num(g.control.tokensPerSuccess?.value)} → ${num(g.canary.tokensPerSuccess?.value)}`,
    ratio(c.tokensPerSuccessRatio),
    `${num(g.control.p95LatencyMs?.value)} → ${num(g.canary.p95LatencyMs?.value)}`,
    ratio(c.p95LatencyRatio),
    `${pct(g.control.negativeFeedbackRate?.value)} → ${pct(g.canary.negativeFeedbackRate?.value)}`,
    delta(c.negativeFeedbackDelta),
    p0,
  ];
}

function table(header: string[], rows: string[][]): string {
  const all = [header, ...rows];
  const widths = header.map((_, i) => Math.max(...all.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]): string => cells.map((cell, i) => (i < 2 || i === cells.length - 1 ? cell.padEnd(widths[i] ?? 0) : cell.padStart(widths[i] ?? 0))).join('  ').trimEnd();
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}
