/**
 * Runs (or, after a crash, resumes) one of the loop's run directories — the train diagnosis
 * or a screen — after checking that its worst case fits the loop's budget: every unit left
 * to run may bill at most B (the runner's own invariant), so (units not yet committed) × B
 * bounds what the step can add to the ledgers.
 */
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { SequentialConfig } from '../config/types.js';
import type { Manifest } from '../ledger/manifest.js';
import { readJsonl } from '../ledger/jsonl-reader.js';
import type { ResultRecord } from '../ledger/records.js';
import { recordUnitKey } from '../ledger/recover.js';
import { readJsonFile, runPaths } from '../ledger/run-dir.js';
import { executeRun } from '../runner/execute-run.js';
import type { RunInputs } from '../runner/inputs.js';
import { planUnits } from '../runner/plan.js';
import { ensureFits, LoopStopped, type LoopContext } from './context.js';

export interface RunStep {
  inputs: RunInputs;
  runId: string;
  /** Parent directory (the round's). */
  outDir: string;
  /** What the budget message calls it, e.g. `the screen of version 3`. */
  what: string;
  /** Screen sequentially (a new run; a resumed one keeps its manifest's plan). */
  sequential?: SequentialConfig;
}

/**
 * Worst-case tokens of the units a run directory has not committed yet. A sequential screen
 * counts every unit of the split too: it may run to the end (`exhausted`), and whether it stops
 * early is not known before it runs — its expected spend is no bound.
 */
export function remainingWorstCase(inputs: RunInputs, runDir: string): number {
  const { config } = inputs;
  const planned = planUnits({ split: inputs.split, cases: inputs.cases, regressionCases: inputs.regressionCases, bestOfN: config.budget.bestOfN, epochs: config.epochs, ...(inputs.variants ? { variants: inputs.variants } : {}) });
  const committed = new Set(readJsonl<ResultRecord>(runPaths(runDir).results).records.map(recordUnitKey));
  return planned.filter((unit) => !committed.has(unit.key)).length * config.budget.totalTokensPerCase;
}

export async function runStep(context: LoopContext, step: RunStep): Promise<string> {
  const dir = join(step.outDir, step.runId);
  // A directory without a manifest died before its first call: nothing in it was billed.
  if (existsSync(dir) && !existsSync(runPaths(dir).manifest)) rmSync(dir, { recursive: true, force: true });
  const exists = existsSync(runPaths(dir).manifest);
  if (exists && readJsonFile<Manifest>(runPaths(dir).manifest, 'manifest.json').status === 'complete') return dir;
  ensureFits(context, remainingWorstCase(step.inputs, dir), step.what);
  const result = await executeRun({
    inputs: step.inputs,
    provider: context.runProvider(),
    ...(exists ? { resumeDir: dir } : { outDir: step.outDir, runId: step.runId }),
    ...(context.signal ? { signal: context.signal } : {}),
    env: context.env,
    secrets: context.secrets,
    keepResults: false,
    ...(step.sequential ? { sequential: step.sequential } : {}),
  });
  if (result.interrupted) throw new LoopStopped({ reason: 'interrupted', message: `interrupted during ${step.what}` });
  return result.runDir;
}
