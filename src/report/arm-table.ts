/**
 * The per-arm table printed at the end of a run, pure text. Wide (one row per arm, ~130
 * columns) where it fits; on a narrower terminal (below 100 columns, or too narrow for the
 * wide one) the same cells transposed — one row per measure, one column per arm letter —
 * so no row wraps at 80 columns.
 */
import type { ArmMetrics } from '../analysis/arm-metrics.js';
import { formatUsdSum } from '../pricing/format-usd.js';
import { armLetter } from '../core/arm-letter.js';
import { width, wrapToWidth } from './text-wrap.js';

/** Below this many columns the narrow layout is used whatever the wide one's width. */
export const NARROW_BELOW_COLUMNS = 100;

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

/** The wide table's columns: the cost pair after tokens/success when some arm has a price. */
function columnsFor(metrics: readonly ArmMetrics[]): typeof COLUMNS {
  const priced = metrics.some((m) => m.costUsd !== null && m.costUsd !== undefined);
  return priced ? [...COLUMNS.slice(0, 8), ...COST_COLUMNS, ...COLUMNS.slice(8)] : COLUMNS;
}

/** A sum that leaves unpriced units out is a lower bound: say so under the table. */
function costNote(metrics: readonly ArmMetrics[]): string {
  const priced = metrics.some((m) => m.costUsd !== null && m.costUsd !== undefined);
  const missing = metrics.reduce((a, m) => a + m.unitsMissingCost, 0);
  return priced && missing > 0 ? `≥: ${missing} units have no price or no usage and are left out of the cost\n` : '';
}

/** `columns`: the terminal's width, undefined when not a terminal (then always the wide table). */
export function renderArmTable(metrics: readonly ArmMetrics[], columns?: number): string {
  const wide = wideTable(metrics);
  const note = costNote(metrics);
  if (columns === undefined) return wide + note;
  const wideWidth = Math.max(...wide.split('\n').map(width));
  return (columns < NARROW_BELOW_COLUMNS || wideWidth > columns - 1 ? narrowTable(metrics, columns) : wide) + note;
}

function wideTable(metrics: readonly ArmMetrics[]): string {
  const table = columnsFor(metrics);
  const rows = [table.map((c) => c.title), ...metrics.map((m) => table.map((c) => c.value(m)))];
  return layout(rows, 1);
}

/** Measures down, arms across (by letter, named in a legend above), every cell of the wide table. */
function narrowTable(metrics: readonly ArmMetrics[], columns: number): string {
  const allN = metrics.map((m) => m.n);
  const letters = metrics.map((m) => armLetter(m, allN));
  const legend = wrapToWidth(`arms: ${metrics.map((m, i) => `${letters[i] ?? ''} ${m.variant} n=${m.n}`).join(' · ')}`, columns);
  const rows = [['', ...letters], ...columnsFor(metrics).slice(1).map((c) => [c.title, ...metrics.map((m) => c.value(m))])];
  const roomy = layout(rows, 1);
  // Many arms with large numbers: one space between columns rather than a wrapped row.
  return `${legend}\n${Math.max(...roomy.split('\n').map(width)) > columns - 1 ? layout(rows, 1, ' ') : roomy}`;
}

/** Left-aligns the first column and right-aligns the rest; a dashed rule under the first `headerRows` rows. */
function layout(rows: readonly string[][], headerRows: number, gap = '  '): string {
  const count = Math.max(...rows.map((r) => r.length));
  const widths = Array.from({ length: count }, (_, i) => Math.max(...rows.map((r) => width(r[i] ?? ''))));
  const pad = (cell: string, size: number, left: boolean): string => (left ? cell + ' '.repeat(size - width(cell)) : ' '.repeat(size - width(cell)) + cell);
  const line = (cells: readonly string[]): string => widths.map((w, i) => pad(cells[i] ?? '', w, i === 0)).join(gap).trimEnd();
  const rule = widths.map((w) => '-'.repeat(w)).join(gap);
  return `${[...rows.slice(0, headerRows).map(line), rule, ...rows.slice(headerRows).map(line)].join('\n')}\n`;
}


/** null: unknown (a ledger row that stood for n paths with one outcome). */
function pct(value: number | null): string {
  return value === null ? 'n/a' : `${(value * 100).toFixed(1)}%`;
}

function num(value: number | undefined): string {
  return value === undefined ? 'unknown' : Math.round(value).toLocaleString('en-US');
}
