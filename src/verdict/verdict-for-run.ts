/** Reads a run directory, analyses it and writes `verdict.json` beside the ledger. */
import { analyzeResults, type AnalysisContext } from '../analysis/analyze-run.js';
import { loadRun } from '../analysis/load-run.js';
import type { GatesConfig } from '../config/types.js';
import type { Manifest } from '../ledger/manifest.js';
import { runPaths, writeJsonAtomic } from '../ledger/run-dir.js';
import { decideVerdict } from './decide.js';
import type { VerdictRecord } from './record.js';

export function contextFromManifest(manifest: Manifest, gates?: Partial<GatesConfig>): AnalysisContext {
  const config = manifest.config;
  return {
    runId: manifest.run_id,
    experiment: manifest.experiment,
    split: manifest.split,
    budget: config.budget.totalTokensPerCase,
    bestOfN: config.budget.bestOfN,
    baselineId: config.variants.baseline.id,
    candidateId: config.variants.candidate.id,
    gates: { ...config.gates, ...gates },
    seed: manifest.seed,
    nonBindingArms: manifest.arms.filter((a) => !a.binding).map((a) => a.arm),
  };
}

export function verdictForRun(dir: string, gates?: Partial<GatesConfig>, write = true): VerdictRecord {
  const run = loadRun(dir);
  const verdict = decideVerdict(analyzeResults(run.results, contextFromManifest(run.manifest, gates)));
  if (write) writeJsonAtomic(runPaths(dir).verdict, verdict);
  return verdict;
}
