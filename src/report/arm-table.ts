/** The per-arm table printed at the end of a run, pure text. */
import type { ArmMetrics } from '../analysis/arm-metrics.js';

const COLUMNS: Array<{ title: string; value: (m: ArmMetrics) => string }> = [
  { title: 'arm', value: (m) => m.arm },
  { title: 'n', value: (m) => String(m.n) },
  { title: 'cases', value: (m) => String(m.cases) },
  { title: 'pass@1', value: (m) => pct(m.passAt1) },
  { title: 'pass@N', value: (m) => (m.n === 1 ? '—' : pct(m.passAtN)) },
  { title: 'selected@N', value: (m) => (m.n === 1 ? '—' : pct(m.selectedAtN)) },
  { title: 'tokens/case', value: (m) => num(m.meanTokensPerCase) },
  { title: 'tokens/success', value: (m) => num(m.tokensPerSuccess) },
  { title: 'p50 ms', value: (m) => num(m.latencyP50Ms) },
  { title: 'p95 ms', value: (m) => num(m.latencyP95Ms) },
  { title: 'budget-exh.', value: (m) => pct(m.budgetExhaustedRate) },
  { title: 'no usage', value: (m) => String(m.callsMissingUsage) },
  // Paths that ended in a provider error, a scorer error or a timeout: an arm of errors shows 0%.
  { title: 'errors', value: (m) => (m.errors === undefined || m.errors.paths === 0 ? '—' : `${m.errors.errors}/${m.errors.paths}`) },
];

export function renderArmTable(metrics: readonly ArmMetrics[]): string {
  const rows = [COLUMNS.map((c) => c.title), ...metrics.map((m) => COLUMNS.map((c) => c.value(m)))];
  const widths = COLUMNS.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]): string => cells.map((cell, i) => (i === 0 ? cell.padEnd(widths[i] ?? 0) : cell.padStart(widths[i] ?? 0))).join('  ');
  const [header, ...body] = rows;
  return [line(header ?? []), widths.map((w) => '-'.repeat(w)).join('  '), ...body.map(line)].join('\n') + '\n';
}

function pct(value: number): string {
  return `${(value * 100).toFixed(1)}%`;
}

function num(value: number | undefined): string {
  return value === undefined ? 'unknown' : Math.round(value).toLocaleString('en-US');
}
