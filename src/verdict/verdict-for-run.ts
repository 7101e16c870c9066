/** Reads a run directory, analyses and attributes it, and writes `verdict.json` beside the ledger. */
import { analyzeResults, type AnalysisContext } from '../analysis/analyze-run.js';
import { attribute } from '../analysis/attribution/attribute.js';
import { loadRun, type LoadedRun } from '../analysis/load-run.js';
import type { GatesConfig } from '../config/types.js';
import type { Manifest } from '../ledger/manifest.js';
import { runPaths, writeJsonAtomic } from '../ledger/run-dir.js';
import { decideVerdict } from './decide.js';
import { readHistory, type HistoryOptions } from './history.js';
import type { VerdictRecord } from './record.js';
import { applySequential, sequentialView } from './sequential-verdict.js';
import { applyLedgerIntegrity } from './integrity-rule.js';
import { applySimRecognition } from './sim-recognition-rule.js';

export function contextFromManifest(manifest: Manifest, gates?: Partial<GatesConfig>): AnalysisContext {
  const config = manifest.config;
  // An import (src/import) ran under no B: null on disk, unknown here, as for a seed ledger
  // that states none — and then no arm is "not binding" against it either.
  const known = typeof (config.budget.totalTokensPerCase as number | null) === 'number';
  return {
    runId: manifest.run_id,
    experiment: manifest.experiment,
    split: manifest.split,
    budget: known ? config.budget.totalTokensPerCase : undefined,
    budgetSource: known ? 'config' : 'unknown',
    bestOfN: config.budget.bestOfN,
    baselineId: config.variants.baseline.id,
    candidateId: config.variants.candidate.id,
    gates: { ...config.gates, ...gates },
    seed: manifest.seed,
    nonBindingArms: known ? manifest.arms.filter((a) => !a.binding).map((a) => a.arm) : [],
    selector: manifest.selector,
  };
}

/** `run`: the directory's results when the caller has them already (it reads them once for the report too). */
export function verdictForRun(dir: string, gates?: Partial<GatesConfig>, write = true, history: HistoryOptions = {}, run: LoadedRun = loadRun(dir)): VerdictRecord {
  const now = history.now ?? new Date();
  // A sequential run is judged on the cases its decision read (sequential-verdict.ts).
  const sequential = sequentialView(run);
  const results = sequential?.results ?? run.results;
  const analysis = analyzeResults(results, contextFromManifest(run.manifest, gates));
  // The history needs this round's own significance, which the first pass provides.
  const firstPass = decideVerdict(analysis, now, attribute(results, analysis));
  const evaluated = results.filter((r) => r.split !== 'regression' && r.arm === 'baseline_single' && r.epoch === 0);
  const past = readHistory(dir, run.manifest, firstPass, evaluated, { ...history, now });
  const decided = decideVerdict(analysis, now, attribute(results, analysis, past));
  const judged = applySimRecognition(sequential ? applySequential(decided, sequential.monitor) : decided, run.manifest, results);
  const checked = applyLedgerIntegrity(judged, run.integrity);
  const verdict = run.manifest.partial === undefined ? checked : { ...checked, partial: run.manifest.partial };
  if (write) writeJsonAtomic(runPaths(dir).verdict, verdict);
  return verdict;
}
