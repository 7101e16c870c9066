/** The per-arm table printed at the end of a run, pure text. */
import type { ArmMetrics } from '../analysis/arm-metrics.js';
import { formatUsdSum } from '../pricing/format-usd.js';

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

/** Money beside the tokens: shown when some arm has a price (a simulator run has none). */
const COST_COLUMNS: Array<{ title: string; value: (m: ArmMetrics) => string }> = [
  { title: 'cost', value: (m) => formatUsdSum(m.costUsd, m.unitsMissingCost) },
  { title: 'cost/success', value: (m) => formatUsdSum(m.costPerSuccessUsd, m.unitsMissingCost) },
];

export function renderArmTable(metrics: readonly ArmMetrics[]): string {
  const priced = metrics.some((m) => m.costUsd !== null && m.costUsd !== undefined);
  const columns = priced ? [...COLUMNS.slice(0, 8), ...COST_COLUMNS, ...COLUMNS.slice(8)] : COLUMNS;
  const rows = [columns.map((c) => c.title), ...metrics.map((m) => columns.map((c) => c.value(m)))];
  const widths = columns.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]): string => cells.map((cell, i) => (i === 0 ? cell.padEnd(widths[i] ?? 0) : cell.padStart(widths[i] ?? 0))).join('  ');
  const [header, ...body] = rows;
  const partial = priced && metrics.some((m) => m.unitsMissingCost > 0);
  const note = partial ? `≥: ${metrics.reduce((a, m) => a + m.unitsMissingCost, 0)} units have no price or no usage and are left out of the cost\n` : '';
  return [line(header ?? []), widths.map((w) => '-'.repeat(w)).join('  '), ...body.map(line)].join('\n') + '\n' + note;
}


function pct(value: number): string {
  return `${(value * 100).toFixed(1)}%`;
}

function num(value: number | undefined): string {
  return value === undefined ? 'unknown' : Math.round(value).toLocaleString('en-US');
}
