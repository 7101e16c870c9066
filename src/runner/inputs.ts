/**
 * Everything a run reads from disk, loaded and checked up front so that a bad dataset
 * fails before the first token is spent.
 */
import type { EvalCase } from '../core/case.js';
import { IsobudgetError, IsobudgetErrors } from '../core/errors.js';
import { checkExpectedPattern } from '../datasets/expected-pattern-check.js';
import { sha256, stableStringify } from '../core/hash.js';
import type { ExperimentConfig, SplitName } from '../config/types.js';
import { assertNoOverlap, checkSplitOverlap, fieldsOf, loadDatasetFile } from '../datasets/index.js';
import type { UnitSplit, Variant } from './plan.js';

export interface RunInputs {
  config: ExperimentConfig;
  configHash: string;
  split: SplitName;
  cases: EvalCase[];
  regressionCases: EvalCase[];
  datasets: Record<string, { path: string; sha256: string; cases: number }>;
  allowOverlap: boolean;
  /** Leaks found and allowed (with --allow-overlap), as readable lines. */
  overlap: string[];
  /** Said once per dataset file (e.g. ids made from a hash of the input). */
  warnings?: string[];
  /** Set when the caller knows the upstream bills with our tokenizer (e.g. sim serve). */
  promptExact?: boolean;
  /** Variants to run (default both): `evolve` diagnoses the incumbent alone. */
  variants?: readonly Variant[];
  /** Set when `cases` is a subset of the split (`--limit`, `--cases`, `--sample`). */
  partial?: { selection: string; cases: number; of: number };
}

export async function loadRunInputs(config: ExperimentConfig, split: SplitName, allowOverlap: boolean): Promise<RunInputs> {
  const path = config.datasets[split];
  if (!path) {
    throw new IsobudgetError('no_split', `datasets.${split} is not set`, {
      location: { file: config.configPath, key: `datasets.${split}` },
      hint: `add datasets.${split}: path/to/${split}.jsonl, or choose another --split`,
    });
  }
  const loaded: Partial<Record<UnitSplit, EvalCase[]>> = {};
  const datasets: RunInputs['datasets'] = {};
  const warnings: string[] = [];
  for (const name of ['train', 'val', 'test', 'regression'] as const) {
    const file = config.datasets[name];
    if (!file) continue;
    // One read per file: the cases and the hash come from the same bytes.
    const dataset = await loadDatasetFile(file, { configKey: `datasets.${name}`, ...fieldsOf(config) });
    warnings.push(...dataset.warnings);
    loaded[name] = dataset.cases;
    datasets[name] = { path: file, sha256: dataset.sha256, cases: dataset.cases.length };
  }
  const unreadable = expectedPatternErrors(config, loaded);
  if (unreadable.length > 0) throw new IsobudgetErrors(unreadable);
  const leaks = checkSplitOverlap({ train: loaded.train, val: loaded.val, test: loaded.test });
  if (!allowOverlap) assertNoOverlap(leaks);
  return {
    config,
    configHash: configHash(config),
    split,
    cases: loaded[split] ?? [],
    regressionCases: loaded.regression ?? [],
    datasets,
    allowOverlap,
    overlap: leaks.map((leak) => leak.description),
    warnings,
  };
}

/** Cases whose expected value `scorer.expected_pattern` cannot read: bad input, found before the first call. */
function expectedPatternErrors(config: ExperimentConfig, loaded: Partial<Record<UnitSplit, EvalCase[]>>): IsobudgetError[] {
  const { scorer } = config;
  if (scorer.expectedPattern === undefined) return [];
  const field = 'field' in scorer ? scorer.field : undefined;
  const check = { pattern: scorer.expectedPattern, key: config.datasets.fields?.expected ?? 'expected', ...(field === undefined ? {} : { field }) };
  return checkExpectedPattern(Object.values(loaded).flat(), check);
}

/**
 * Hash of what decides outcomes: not where the file lives, nor how fast we call (concurrency
 * and rate limit), so a run can be resumed with other throughput settings.
 */
export function configHash(config: ExperimentConfig): string {
  const { configPath: _where, concurrency: _concurrency, rateLimit: _rate, tokenRateLimit: _tokenRate, ...rest } = config;
  return sha256(stableStringify(rest));
}
