/** comparisonProblems as the CLI reports them: one IsobudgetError each, at the config file and key. */
import { IsobudgetError } from '../core/errors.js';
import { comparisonProblems } from './comparison-checks.js';
import type { ExperimentConfig } from './types.js';

export function comparisonErrors(config: ExperimentConfig): IsobudgetError[] {
  return comparisonProblems(config).map((problem) => new IsobudgetError(problem.code, problem.message, { location: { file: config.configPath, key: problem.key }, hint: problem.hint }));
}
