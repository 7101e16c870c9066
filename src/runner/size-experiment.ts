/**
 * Sizes a run before it starts (`run --dry-run`, and the line printed at every start): the
 * same config, inputs, case selection and plan as `runExperiment`, no run directory, no call.
 * The expectation comes from the latest complete run of the same experiment and config hash
 * under the runs folder.
 */
import { loadConfig } from '../config/index.js';
import type { ExperimentConfig, SplitName } from '../config/types.js';
import { loadPricingFile } from '../config/load-pricing-file.js';
import { listRunDirs } from '../ledger/run-listing.js';
import { summarizeRun } from '../ledger/run-summary.js';
import { buildPriceTable } from '../pricing/build-table.js';
import { type CaseSelection, withCaseSelection } from './case-selection.js';
import { loadRunInputs, type RunInputs } from './inputs.js';
import { applyModelOverrides, type ModelOverrides } from './model-overrides.js';
import { planUnits } from './plan.js';
import { expectedSpend, type ExpectedSpend, type RunSize, sizeRun } from './run-size.js';

export interface SizeExperimentOptions {
  configPath: string;
  split?: SplitName;
  /** The runs folder searched for an earlier run of the same experiment. */
  outDir: string;
  allowOverlap?: boolean;
  pricingFile?: string;
  cases?: CaseSelection;
  models?: ModelOverrides;
}

export interface ExperimentSize {
  config: ExperimentConfig;
  inputs: RunInputs;
  size: RunSize;
  expected: ExpectedSpend | undefined;
}

export async function sizeExperiment(options: SizeExperimentOptions): Promise<ExperimentSize> {
  const config = await loadConfig(options.configPath);
  applyModelOverrides(config, options.models);
  const prices = buildPriceTable({ config: config.pricing, file: options.pricingFile === undefined ? undefined : { path: options.pricingFile, prices: loadPricingFile(options.pricingFile) } });
  const split = options.split ?? (config.datasets.val ? 'val' : 'test');
  const inputs = withCaseSelection(await loadRunInputs(config, split, options.allowOverlap ?? false), options.cases);
  const units = planUnits({ split: inputs.split, cases: inputs.cases, regressionCases: inputs.regressionCases, bestOfN: config.budget.bestOfN, epochs: config.epochs });
  return { config, inputs, size: sizeRun(config, units, prices), expected: expectedSpend(earlierRun(options.outDir, config.experiment, inputs.configHash), units.length) };
}

function earlierRun(outDir: string, experiment: string, configHash: string): { runId: string; tokens: number; units: number } | undefined {
  const now = new Date();
  const earlier = listRunDirs(outDir)
    .filter((entry) => entry.manifest?.experiment === experiment && entry.manifest.config_hash === configHash && entry.manifest.status === 'complete')
    .sort((a, b) => (a.createdAt ?? '').localeCompare(b.createdAt ?? ''))
    .at(-1);
  if (earlier?.manifest === undefined) return undefined;
  try {
    const summary = summarizeRun(earlier, now);
    return { runId: earlier.id, tokens: summary.tokens, units: earlier.manifest.units_planned };
  } catch {
    return undefined;
  }
}
