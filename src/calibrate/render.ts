/** The human table of `isobudget calibrate`: rates as percentages with their Wilson CIs. */
import type { GatesConfig } from '../config/types.js';
import { costGamingLevel } from '../verdict/decide.js';
import type { CalibrationReport } from './calibrate.js';
import type { Population } from './latent.js';
import type { ScenarioResult } from './simulate.js';

export interface RenderContext {
  population: Population;
  gates: GatesConfig;
  bestOfN: readonly number[];
  /** Bootstrap rounds a real run uses (gates.bootstrap_rounds of the plan). */
  runRounds: number;
  /** Where the plan came from, e.g. `examples/null/experiment.yaml` or `defaults`. */
  source: string;
  elapsedMs: number;
}

export function renderCalibration(report: CalibrationReport, context: RenderContext): string {
  const { population, gates } = context;
  const lines: string[] = [];
  lines.push(`isobudget calibrate — ${report.cases} cases, baseline pass ${population.baselinePass.toFixed(2)} (between-case SD ${population.spread.toFixed(2)}), ${population.categories > 1 ? `${population.categories} categories` : 'no categories'}; plan: ${context.source}`);
  lines.push(`gates: gain ≥ ${gates.minSameBudgetGain} with its ${pct(gates.confidence, 0)} CI above 0 and McNemar agreeing, tokens_per_success ≤ ${gates.maxTokenGrowthRatio}× with its CI below ×${costGamingLevel(gates.maxTokenGrowthRatio).toFixed(2)}, p95 latency ≤ ${gates.maxLatencyGrowthRatio}×; best_of_n ${context.bestOfN.join(', ')}`);
  lines.push(`simulation: ${report.experiments} experiments per scenario, ${report.rounds} bootstrap rounds per analysis (a run uses ${context.runRounds}), seed ${report.seed}; ${report.allArms ? 'all arms (selector modelled as oracle)' : 'n=1 arms only (Best-of-N arms cannot change real_evolution; --all-arms adds them)'}`);
  lines.push('');
  const rows: string[][] = [
    ['scenario', 'real_evolution', '95% CI', 'n=1 CI coverage', 'other verdicts'],
    [`null (δ = 0)`, `${pct(report.null.rate)} false promotion`, interval(report.null), pct(report.null.coverage), others(report.null)],
    [`effect (δ = ${signed(report.effect)})`, `${pct(report.alternative.rate)} power`, interval(report.alternative), pct(report.alternative.coverage), others(report.alternative)],
    [`cost gaming (δ = ${signed(report.effect)}, tokens/success ×${report.costGamingRatio.toFixed(2)})`, `${pct(report.costGaming.rate)} cost gaming`, interval(report.costGaming), pct(report.costGaming.coverage), others(report.costGaming)],
  ];
  lines.push(...table(rows));
  lines.push('');
  const search = report.search;
  const closed = `closed form: ${report.closedForm.ciOnly ?? '—'} for the CI rule alone (casesForPower); ${report.closedForm.withGainGate ?? 'never'} with the min-gain rule too`;
  if (search === undefined) {
    lines.push(`cases for 80% power at δ = ${signed(report.effect)}: not searched — ${report.effect <= gates.minSameBudgetGain ? `a true effect ≤ min gain ${gates.minSameBudgetGain} passes the gain rule at most about half the time, at any case count` : 'search disabled'}`);
    lines.push(`  ${closed}`);
  } else {
    const found = search.atCases;
    lines.push(
      search.cases === null || found === undefined
        ? `cases for ${pct(search.target, 0)} power at δ = ${signed(report.effect)}: more than ${search.maxCases} (the search cap)`
        : `cases for ${pct(search.target, 0)} power at δ = ${signed(report.effect)}: ${search.cases} simulated (power ${pct(found.rate)} ${interval(found)}, ${found.experiments} experiments)`,
    );
    lines.push(`  ${closed}`);
    // Counts far from the target stop early (power-search.ts); say so beside their rate.
    const early = (r: ScenarioResult): string => (r.experiments < search.experimentsPerCount ? ` (settled after ${r.experiments})` : '');
    lines.push(`  searched: ${search.evaluated.map((r) => `${r.cases} ${pct(r.rate, 0)}${early(r)}`).join(' · ')}`);
  }
  lines.push(`effect model: candidate p = σ(logit p ${report.logitShift >= 0 ? '+' : '−'} ${Math.abs(report.logitShift).toFixed(3)}), population mean delta ${signed(report.effect)}; SD of one paired difference ${report.sdDiff.toFixed(3)}`);
  lines.push(`time: ${(context.elapsedMs / 1000).toFixed(1)} s`);
  return `${lines.join('\n')}\n`;
}

function table(rows: string[][]): string[] {
  const widths = rows[0]?.map((_, column) => Math.max(...rows.map((row) => (row[column] ?? '').length))) ?? [];
  return rows.map((row) => row.map((cell, column) => cell.padEnd(widths[column] ?? 0)).join('  ').trimEnd());
}

function others(result: ScenarioResult): string {
  const entries = Object.entries(result.verdicts).filter(([name]) => name !== 'real_evolution');
  return entries.length === 0 ? '—' : entries.sort(([, a], [, b]) => b - a).map(([name, count]) => `${name} ${count}`).join(', ');
}

function interval(result: ScenarioResult): string {
  return `[${pct(result.ci[0])}, ${pct(result.ci[1])}]`;
}

function pct(value: number, digits = 1): string {
  return `${(value * 100).toFixed(digits)}%`;
}

function signed(value: number): string {
  return `${value >= 0 ? '+' : '−'}${Math.abs(value).toFixed(2)}`;
}
