/** The human table of `isobudget calibrate --sequential`: per split size and effect, the screen beside the fixed run. */
import type { Interval } from '../stats/index.js';
import type { SequentialCalibrationReport, SequentialCell } from './sequential-calibrate.js';

export interface SequentialRenderContext {
  /** Where the plan came from, e.g. `examples/null/experiment.yaml` or `defaults`. */
  source: string;
  confidence: number;
  elapsedMs: number;
}

export function renderSequentialCalibration(report: SequentialCalibrationReport, context: SequentialRenderContext): string {
  const s = report.sequential;
  const lines = [
    `isobudget calibrate --sequential — plan: ${context.source}`,
    `screen: seeded order, a look every ${s.lookEvery} cases from ${s.minCases}; efficacy needs the ${pct(context.confidence, 0)} betting CS above 0 and the ${pct(s.gainConfidence, 0)} gain bound ≥ ${report.minGain}; futility: the ${pct(s.futilityConfidence, 0)} bound below ${report.minGain}`,
    `simulation: ${report.experiments} experiments per cell, ${report.rounds} bootstrap rounds per analysis, seed ${report.seed}; a false promotion is real_evolution at a true effect below ${report.minGain}, counted at whichever look it happened`,
    '',
  ];
  const rows: string[][] = [['cases', 'effect', 'false promotion [95% CI]', 'power [95% CI]', 'tokens mean', 'tokens p90', 'fixed run promotes', 'stops']];
  for (const cell of report.cells) {
    rows.push([
      String(cell.cases),
      signed(cell.effect),
      cell.false_promotion_rate === null ? '—' : `${pct(cell.false_promotion_rate)} ${interval(cell.false_promotion_ci95)}`,
      cell.power === null ? '—' : `${pct(cell.power)} ${interval(cell.power_ci95)}`,
      pct(cell.tokens_fraction_mean),
      pct(cell.tokens_fraction_p90),
      pct(cell.fixed.promotion_rate),
      stops(cell),
    ]);
  }
  lines.push(...table(rows), '', `tokens: what the screen spent as a share of the fixed run over the whole split; the fixed run promotes by the ordinary verdict on all the cases of the same draws.`, `time: ${(context.elapsedMs / 1000).toFixed(1)} s`);
  return `${lines.join('\n')}\n`;
}

function stops(cell: SequentialCell): string {
  return Object.entries(cell.stop_reasons).sort(([, a], [, b]) => b - a).map(([reason, count]) => `${reason} ${count}`).join(', ');
}

function table(rows: string[][]): string[] {
  const widths = rows[0]?.map((_, column) => Math.max(...rows.map((row) => (row[column] ?? '').length))) ?? [];
  return rows.map((row) => row.map((cell, column) => cell.padEnd(widths[column] ?? 0)).join('  ').trimEnd());
}

function interval(ci: Interval | null): string {
  return ci ? `[${pct(ci[0])}, ${pct(ci[1])}]` : '';
}

function pct(value: number, digits = 1): string {
  return `${(value * 100).toFixed(digits)}%`;
}

function signed(value: number): string {
  return `${value >= 0 ? '+' : '−'}${Math.abs(value).toFixed(2)}`;
}
