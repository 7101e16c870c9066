/** What `run` and `analyze` print: the per-arm table, then the verdict. */
import { renderArmTable } from '../../report/arm-table.js';
import { renderVerdict } from '../../report/verdict-text.js';
import { renderMarkdownSummary } from '../../report/markdown-summary.js';
import { renderSequential } from '../../report/sequential-text.js';
import type { GatesConfig } from '../../config/types.js';
import { loadRun, type LoadedRun } from '../../analysis/load-run.js';
import { verdictForRun } from '../../verdict/verdict-for-run.js';
import type { VerdictRecord } from '../../verdict/record.js';
import { appendFileSync, writeFileSync } from 'node:fs';
import { isAbsolute, relative } from 'node:path';
import { renderJunit } from '../../report/junit.js';
import { writeRunReport } from '../../report/html/write-run-report.js';
import { wrapToWidth } from '../../report/text-wrap.js';
import { EXIT } from '../exit-codes.js';
import { terminalColumns, type CliIO } from '../io.js';

export interface FinishOptions {
  gate: boolean;
  json: boolean;
  markdown: boolean;
  gates?: Partial<GatesConfig>;
  /** Write the gate as JUnit XML to this file (absolute path). */
  junit?: string;
  /** Write runs/<id>/report.html (default true). */
  report?: boolean;
}

/**
 * `decided`: the run and verdict when the caller decided them already (run's beforeComplete,
 * which writes verdict.json before the manifest says `complete`).
 */
export async function finishRun(runDir: string, io: CliIO, options: FinishOptions, decided?: { run: LoadedRun; verdict: VerdictRecord }): Promise<number> {
  // Read once for the verdict and the report: results.jsonl of a 1,000-case run is ~6 MB.
  const run = decided?.run ?? loadRun(runDir);
  const verdict = decided?.verdict ?? verdictForRun(runDir, options.gates, true, {}, run);
  const code = printVerdict(verdict, io, options, runDir, run.manifest.config_path);
  if (options.report !== false) await writeReport(runDir, verdict, io, options, run);
  return code;
}

/** The report is a view of the verdict: failing to write it warns, never changes the gate's exit code. */
export async function writeReport(runDir: string, verdict: VerdictRecord, io: CliIO, options: Pick<FinishOptions, 'json' | 'markdown'>, run?: LoadedRun): Promise<void> {
  try {
    const written = await writeRunReport(runDir, { verdict, ...(run ? { run } : {}) });
    if (!options.json && !options.markdown) io.stdout.write(wrapToWidth(`report: ${written.file}\n`, terminalColumns(io.stdout)));
  } catch (error) {
    io.stderr.write(`warning: report.html not written: ${error instanceof Error ? error.message : String(error)}\n`);
  }
}

/** `configPath`: the run's experiment (absolute), shown relative to the working directory in `isobudget gate …`. */
export function printVerdict(verdict: VerdictRecord, io: CliIO, options: FinishOptions, runDir?: string, configPath?: string): number {
  const shown = { configPath: configPath === undefined ? undefined : displayPath(configPath, io.cwd) };
  if (options.json) io.stdout.write(`${JSON.stringify(verdict, null, 2)}\n`);
  else if (options.markdown) io.stdout.write(renderMarkdownSummary(verdict, shown));
  else {
    // On a terminal the text fits its width: the table takes its narrow layout, prose wraps.
    const columns = terminalColumns(io.stdout);
    const fit = (text: string): string => wrapToWidth(text, columns);
    const partial = verdict.partial === undefined ? '' : ` (partial: ${verdict.partial.cases} of ${verdict.partial.of} cases, ${verdict.partial.selection})`;
    io.stdout.write(fit(`\nrun ${verdict.run_id} — ${verdict.experiment}, split ${verdict.split}${partial}, ${budgetHeader(verdict)}\n\n`));
    io.stdout.write(renderArmTable(verdict.arms, columns));
    if (verdict.sequential) io.stdout.write(fit(`\n${renderSequential(verdict.sequential)}`));
    io.stdout.write(fit(`\n${renderVerdict(verdict, shown)}`));
    if (verdict.partial) io.stdout.write(fit(`partial run: this verdict is on ${verdict.partial.cases} of ${verdict.partial.of} cases (${verdict.partial.selection}); run the whole split before acting on it\n`));
    if (runDir) io.stdout.write(fit(`\nledger: ${runDir}\n`));
  }
  const summary = io.env.GITHUB_STEP_SUMMARY;
  if (summary) appendFileSync(summary, renderMarkdownSummary(verdict, shown));
  if (options.junit) writeFileSync(options.junit, renderJunit(verdict));
  return options.gate ? gateExitCode(verdict.verdict) : EXIT.ok;
}

function budgetHeader(verdict: VerdictRecord): string {
  const sb = verdict.same_budget;
  if (sb === null) return 'no n=1 comparison (an arm is missing)';
  if (sb.budget === null) return 'B unknown (the ledger states no budget; pass --budget B) — not a same-budget comparison';
  return `B=${sb.budget} tokens per case${sb.budget_source === 'ledger' ? ' (from the ledger)' : ''}`;
}

export function gateExitCode(verdict: VerdictRecord['verdict']): number {
  if (verdict === 'real_evolution') return EXIT.ok;
  if (verdict === 'regression') return EXIT.regression;
  if (verdict === 'invalid') return EXIT.invalid;
  return EXIT.notPromotable;
}

/** A path under the working directory as a relative one (what the user would type), else as is. */
function displayPath(path: string, cwd: string): string {
  const rel = relative(cwd, path);
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel) ? rel : path;
}
