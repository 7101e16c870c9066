/** What `run` and `analyze` print: the per-arm table, then the verdict. */
import { renderArmTable } from '../../report/arm-table.js';
import { renderVerdict } from '../../report/verdict-text.js';
import { renderMarkdownSummary } from '../../report/markdown-summary.js';
import type { GatesConfig } from '../../config/types.js';
import { verdictForRun } from '../../verdict/verdict-for-run.js';
import type { VerdictRecord } from '../../verdict/record.js';
import { appendFileSync } from 'node:fs';
import { EXIT } from '../exit-codes.js';
import type { CliIO } from '../io.js';

export interface FinishOptions {
  gate: boolean;
  json: boolean;
  markdown: boolean;
  gates?: Partial<GatesConfig>;
}

export async function finishRun(runDir: string, io: CliIO, options: FinishOptions): Promise<number> {
  const verdict = verdictForRun(runDir, options.gates);
  return printVerdict(verdict, io, options, runDir);
}

export function printVerdict(verdict: VerdictRecord, io: CliIO, options: FinishOptions, runDir?: string): number {
  if (options.json) io.stdout.write(`${JSON.stringify(verdict, null, 2)}\n`);
  else if (options.markdown) io.stdout.write(renderMarkdownSummary(verdict));
  else {
    io.stdout.write(`\nrun ${verdict.run_id} — ${verdict.experiment}, split ${verdict.split}, B=${verdict.same_budget?.budget ?? '?'} tokens per case\n\n`);
    io.stdout.write(renderArmTable(verdict.arms));
    io.stdout.write(`\n${renderVerdict(verdict)}`);
    if (runDir) io.stdout.write(`\nledger: ${runDir}\n`);
  }
  const summary = io.env.GITHUB_STEP_SUMMARY;
  if (summary) appendFileSync(summary, renderMarkdownSummary(verdict));
  return options.gate ? gateExitCode(verdict.verdict) : EXIT.ok;
}

export function gateExitCode(verdict: VerdictRecord['verdict']): number {
  if (verdict === 'real_evolution') return EXIT.ok;
  if (verdict === 'regression') return EXIT.regression;
  if (verdict === 'invalid') return EXIT.invalid;
  return EXIT.notPromotable;
}
