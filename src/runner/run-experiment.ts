/**
 * The library entry point for a run: config → inputs → provider → executeRun.
 * The CLI is a thin layer over this; tests and scripts call it directly.
 */
import { loadConfig, readApiKey, sequentialConfig } from '../config/index.js';
import type { ExperimentConfig, SequentialConfig, SplitName } from '../config/types.js';
import type { Manifest } from '../ledger/manifest.js';
import { loadPricingFile } from '../config/load-pricing-file.js';
import { buildPriceTable } from '../pricing/build-table.js';
import { createProvider } from '../providers/create-provider.js';
import { executeRun, type ExecuteRunOptions, type ExecuteRunResult } from './execute-run.js';
import { loadRunInputs } from './inputs.js';
import type { ProgressSink } from './progress.js';
import { withCaseSelection, type CaseSelection } from './case-selection.js';
import { applyModelOverrides, type ModelOverrides } from './model-overrides.js';

export interface RunExperimentOptions {
  configPath: string;
  split?: SplitName;
  /** Parent of run directories (default `runs`). */
  outDir?: string;
  /** Continue this run directory instead of starting one. */
  resumeDir?: string;
  /** The resumed run's manifest: its split and overlap choice are kept. */
  resumeManifest?: Manifest;
  runId?: string;
  allowOverlap?: boolean;
  concurrency?: number;
  /** Where API keys are read from (default process.env). */
  env?: NodeJS.ProcessEnv;
  progress?: ProgressSink;
  signal?: AbortSignal;
  /** Scales the in-process simulator's latency (0 = instant). */
  simLatencyScale?: number;
  /** Called once the run directory and manifest exist, before the first call. */
  onStart?: (manifest: Manifest) => void;
  /** See ExecuteRunOptions.beforeComplete. */
  beforeComplete?: (runDir: string) => void | Promise<void>;
  /** See ExecuteRunOptions.keepResults (default true). */
  keepResults?: boolean;
  /** See ExecuteRunOptions.onUnitCommitted. */
  onUnitCommitted?: ExecuteRunOptions['onUnitCommitted'];
  /**
   * Sequential screening (issue 14) of a new run: `true` uses the config's `sequential:` block
   * or the defaults (look_every 20, min_cases 40); an object overrides single settings; `false`
   * runs every case even when the config has the block. Default: on exactly when the config has
   * the block. A resumed run keeps whatever its manifest says.
   */
  sequential?: boolean | Partial<SequentialConfig>;
  /** `--pricing FILE`: prices over the config's and the defaults (a resumed run keeps the prices it started with). */
  pricingFile?: string;
  /** `--max-total-tokens`: the run-level token cap over the config's `budget.max_total_tokens` (a resume may raise it). */
  maxTotalTokens?: number;
  /** `--limit` / `--cases` / `--sample`: run only these cases of the split (a resume keeps the run's). */
  cases?: CaseSelection;
  /** `--models`: the variants' models over the config's (a resume keeps the run's). */
  models?: ModelOverrides;
}

export async function runExperiment(options: RunExperimentOptions): Promise<ExecuteRunResult> {
  const config = await loadConfig(options.configPath);
  // A resumed run continues the way it started unless told otherwise (manifest run_options).
  const kept = options.resumeManifest?.run_options ?? {};
  const concurrency = options.concurrency ?? kept.concurrency;
  const simLatencyScale = options.simLatencyScale ?? kept.sim_latency_scale;
  if (concurrency !== undefined) config.concurrency = Math.max(1, concurrency);
  const models = options.models ?? kept.models;
  applyModelOverrides(config, models);
  // Read before anything starts: a bad pricing file fails the run before its first call.
  const prices = buildPriceTable({ config: config.pricing, file: options.pricingFile === undefined ? undefined : { path: options.pricingFile, prices: loadPricingFile(options.pricingFile) } });
  const manifest = options.resumeManifest;
  const split = options.split ?? manifest?.split ?? (config.datasets.val ? 'val' : 'test');
  const cases = options.cases ?? kept.cases;
  const inputs = withCaseSelection(await loadRunInputs(config, split, options.allowOverlap ?? manifest?.allow_overlap ?? false), cases);
  const env = options.env ?? process.env;
  const apiKey = readApiKey(config, env);
  const provider = createProvider(
    { protocol: config.provider.protocol, baseUrl: config.provider.baseUrl, apiKey, apiKeyEnv: config.provider.apiKeyEnv, timeoutMs: config.provider.timeoutMs, headers: config.provider.headers },
    { simSeed: config.seed, ...(simLatencyScale === undefined ? {} : { simLatencyScale }) },
  );
  return executeRun({
    inputs,
    provider,
    ...(options.outDir === undefined ? {} : { outDir: options.outDir }),
    ...(options.resumeDir === undefined ? {} : { resumeDir: options.resumeDir }),
    ...(options.runId === undefined ? {} : { runId: options.runId }),
    ...(options.progress === undefined ? {} : { progress: options.progress }),
    ...(options.signal === undefined ? {} : { signal: options.signal }),
    ...(options.onStart === undefined ? {} : { onStart: options.onStart }),
    ...(options.keepResults === undefined ? {} : { keepResults: options.keepResults }),
    ...(options.onUnitCommitted === undefined ? {} : { onUnitCommitted: options.onUnitCommitted }),
    ...(options.beforeComplete === undefined ? {} : { beforeComplete: options.beforeComplete }),
    ...sequentialOption(config, options.sequential),
    prices,
    cap: { maxTotalTokens: options.maxTotalTokens ?? config.budget.maxTotalTokens, maxCostUsd: config.budget.maxCostUsd },
    runOptions: { ...(simLatencyScale === undefined ? {} : { sim_latency_scale: simLatencyScale }), ...(concurrency === undefined ? {} : { concurrency }), ...(cases === undefined ? {} : { cases }), ...(models === undefined ? {} : { models }) },
    env,
    secrets: apiKey ? [apiKey] : [],
  });
}

function sequentialOption(config: ExperimentConfig, choice: RunExperimentOptions['sequential']): { sequential?: SequentialConfig } {
  if (choice === false || (choice === undefined && config.sequential === undefined)) return {};
  const base = config.sequential ?? sequentialConfig({});
  return { sequential: typeof choice === 'object' ? { ...base, ...choice } : base };
}
