/** What `run` prints when the arms are done: the per-arm table (and the verdict). */
import { armMetrics } from '../../analysis/arm-metrics.js';
import { loadRun } from '../../analysis/load-run.js';
import { renderArmTable } from '../../report/arm-table.js';
import { EXIT } from '../exit-codes.js';
import type { CliIO } from '../io.js';

export interface FinishOptions {
  gate: boolean;
  json: boolean;
  markdown: boolean;
}

export async function finishRun(runDir: string, io: CliIO, options: FinishOptions): Promise<number> {
  const run = loadRun(runDir);
  const evaluated = run.results.filter((r) => r.split !== 'regression');
  const metrics = armMetrics(evaluated);
  if (options.json) {
    io.stdout.write(`${JSON.stringify({ run_id: run.manifest.run_id, run_dir: runDir, arms: metrics }, null, 2)}\n`);
    return EXIT.ok;
  }
  io.stdout.write(`\nrun ${run.manifest.run_id} — ${run.manifest.experiment}, split ${run.manifest.split}, B=${run.manifest.config.budget.totalTokensPerCase} tokens per case\n\n`);
  io.stdout.write(renderArmTable(metrics));
  io.stdout.write(`\nledger: ${runDir}\n`);
  return EXIT.ok;
}
