/** `runs list` as terminal text, pure: one row per run, newest first. */
import type { RunSummary } from '../ledger/run-summary.js';
import { formatUsd } from '../pricing/format-usd.js';

const COLUMNS: Array<{ title: string; right: boolean; value: (r: RunSummary) => string }> = [
  { title: 'id', right: false, value: (r) => r.id },
  { title: 'experiment', right: false, value: (r) => r.experiment ?? '—' },
  { title: 'status', right: false, value: (r) => r.status },
  { title: 'verdict', right: false, value: (r) => r.verdict ?? '—' },
  { title: 'cases', right: true, value: (r) => (r.cases === null ? '—' : r.cases.toLocaleString('en-US')) },
  { title: 'tokens', right: true, value: (r) => (r.status === 'broken' ? '—' : `${r.calls_missing_usage > 0 ? '≥' : ''}${r.tokens.toLocaleString('en-US')}`) },
  { title: 'cost', right: true, value: (r) => (r.status === 'broken' ? '—' : r.cost_usd === null ? 'unknown' : `${r.calls_unpriced > 0 || r.calls_missing_usage > 0 ? '≥' : ''}${formatUsd(r.cost_usd)}`) },
  { title: 'age', right: true, value: (r) => age(r.age_seconds) },
];

export function renderRunsTable(runs: readonly RunSummary[], parent: string): string {
  if (runs.length === 0) return `no runs in ${parent}\n`;
  const rows = [COLUMNS.map((c) => c.title), ...runs.map((r) => COLUMNS.map((c) => c.value(r)))];
  const widths = COLUMNS.map((_, i) => Math.max(...rows.map((row) => (row[i] ?? '').length)));
  const line = (cells: string[]): string => cells.map((cell, i) => (COLUMNS[i]?.right ? cell.padStart(widths[i] ?? 0) : cell.padEnd(widths[i] ?? 0))).join('  ').trimEnd();
  const notes = runs.flatMap((r) => [
    ...(r.broken ? [`${r.id}: broken — ${r.broken}; remove it with \`isobudget runs rm ${r.id}\``] : []),
    ...(r.ledger_error ? [`${r.id}: ledger not fully readable (${r.ledger_error}); its tokens and cost are incomplete`] : []),
  ]);
  const partial = runs.some((r) => r.status !== 'broken' && ((r.cost_usd !== null && r.calls_unpriced > 0) || r.calls_missing_usage > 0));
  return `${[
    line(rows[0] ?? []),
    ...rows.slice(1).map(line),
    ...(notes.length ? ['', ...notes] : []),
    ...(partial ? ['', '≥: some calls had no usage or no price; the sum leaves them out'] : []),
  ].join('\n')}\n`;
}

/** "45s", "12m", "3h", "5d". */
export function age(seconds: number): string {
  if (seconds < 60) return `${seconds}s`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)}m`;
  if (seconds < 86_400) return `${Math.floor(seconds / 3600)}h`;
  return `${Math.floor(seconds / 86_400)}d`;
}
