/** Reads what the gate checks: the config(s), the candidate skill, the test and regression cases. */
import type { EvalCase } from '../core/case.js';
import { IsobudgetError, IsobudgetErrors } from '../core/errors.js';
import { loadConfig } from '../config/load.js';
import type { ExperimentConfig } from '../config/types.js';
import { fieldsOf, fileSha256, loadDataset } from '../datasets/index.js';

export interface GateInputs {
  config: ExperimentConfig | undefined;
  /** The config the baseline policy comes from (the candidate's own unless --baseline-config). */
  baselineConfig: ExperimentConfig | undefined;
  problems: string[];
  skill: { text: string; file: string } | undefined;
  testCases: EvalCase[] | undefined;
  regressionCases: EvalCase[] | undefined;
  /** sha256 of the test file, as run manifests record it. */
  testSha256: string | undefined;
}

/** User errors become problem lines (layer 1 records them); anything else is a bug and propagates. */
async function collect<T>(problems: string[], load: () => Promise<T>): Promise<T | undefined> {
  try {
    return await load();
  } catch (error) {
    if (error instanceof IsobudgetErrors) problems.push(...error.errors.map((e) => e.format()));
    else if (error instanceof IsobudgetError) problems.push(error.format());
    else throw error;
    return undefined;
  }
}

export async function loadGateInputs(configPath: string, baselineConfigPath: string | undefined): Promise<GateInputs> {
  const problems: string[] = [];
  const config = await collect(problems, () => loadConfig(configPath));
  const baselineConfig = baselineConfigPath === undefined ? config : await collect(problems, () => loadConfig(baselineConfigPath));
  const test = config?.datasets.test;
  const regression = config?.datasets.regression;
  const testCases = test === undefined ? undefined : await collect(problems, () => loadDataset(test, { split: 'test', ...(config ? fieldsOf(config) : {}) }));
  const regressionCases = regression === undefined ? undefined : await collect(problems, () => loadDataset(regression, { split: 'regression', ...(config ? fieldsOf(config) : {}) }));
  const candidate = config?.variants.candidate;
  return {
    config,
    baselineConfig,
    problems,
    skill: candidate?.skillFile === undefined ? undefined : { text: candidate.systemPrompt, file: candidate.skillFile },
    testCases,
    regressionCases,
    testSha256: test === undefined || testCases === undefined ? undefined : await fileSha256(test),
  };
}
