/**
 * Opens the directory a run writes to: a new one (manifest written first) or, on `--resume`,
 * an existing one checked against the config and datasets and recovered to a consistent
 * state. Either way a little disk is reserved, so a run that later fills the disk can still
 * mark itself interrupted.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { withoutUserinfo } from '../core/display-url.js';
import { IsobudgetError } from '../core/errors.js';
import { ledgerWriteError } from '../ledger/ledger-write-error.js';
import { emptyCallCounts, type Manifest, type RunOptionsRecord } from '../ledger/manifest.js';
import { LEDGER_SCHEMA_VERSION, type ResultRecord } from '../ledger/records.js';
import { recoverLedger } from '../ledger/recover.js';
import { checkRunId, newRunId, readJsonFile, reserveSpace, runPaths, writeJsonAtomic, type RunPaths } from '../ledger/run-dir.js';
import type { Provider } from '../providers/spec.js';
import { buildPriceTable } from '../pricing/build-table.js';
import type { PriceTable } from '../pricing/price-table.js';
import { fromPricingRecord, toPricingRecord } from '../pricing/pricing-record.js';
import { TOOL_VERSION } from '../version.js';
import { describeArms } from './arm-plan.js';
import type { RunInputs } from './inputs.js';
import type { Unit } from './plan.js';
import type { SequentialConfig } from '../config/types.js';
import { sequentialPlan } from './sequential-plan.js';
import { comparisonProblems } from '../config/comparison-checks.js';

export interface OpenRunDirOptions {
  inputs: RunInputs;
  provider: Provider;
  outDir?: string;
  resumeDir?: string;
  runId?: string;
  /** Sequential screening of a new run: its plan is fixed in the manifest (a resumed run keeps it). */
  sequential?: SequentialConfig;
  /** Prices for `cost_usd` (default: the dated table under the config's `pricing:`); a resumed run keeps its own. */
  prices?: PriceTable;
  /** Recorded in a new run's manifest, reused by `--resume`. */
  runOptions?: RunOptionsRecord;
}

export interface OpenedRunDir {
  paths: RunPaths;
  manifest: Manifest;
  done: Set<string>;
  results: ResultRecord[];
  /** The prices this run's calls are costed with. */
  prices: PriceTable;
}

/** Enough for the manifest twice over (it is replaced through a temp copy), at least 64 KiB. */
function reserveBytes(manifest: Manifest): number {
  return Math.max(64 * 1024, 2 * Buffer.byteLength(JSON.stringify(manifest, null, 2)) + 16 * 1024);
}

/** Writes the manifest; a disk error becomes the run's ledger_write error. */
export function saveManifest(paths: RunPaths, manifest: Manifest): void {
  try {
    writeJsonAtomic(paths.manifest, manifest);
  } catch (error) {
    throw ledgerWriteError(paths.manifest, error);
  }
}

export function openRunDir(options: OpenRunDirOptions, units: readonly Unit[]): OpenedRunDir {
  return options.resumeDir ? reopen(options, options.resumeDir) : create(options, units);
}

function reopen(options: OpenRunDirOptions, dir: string): OpenedRunDir {
  const { inputs } = options;
  const paths = runPaths(dir);
  const manifest = readJsonFile<Manifest>(paths.manifest, 'manifest.json');
  if (manifest.config_hash !== inputs.configHash) {
    throw new IsobudgetError('resume_mismatch', 'the config changed since this run started (config hash differs)', {
      location: { file: inputs.config.configPath },
      hint: 'resume with the same experiment.yaml and skill files, or start a new run',
    });
  }
  for (const [name, info] of Object.entries(inputs.datasets)) {
    const recorded = manifest.datasets[name];
    if (recorded && recorded.sha256 !== info.sha256) {
      throw new IsobudgetError('resume_mismatch', `dataset '${name}' changed since this run started`, { location: { file: info.path }, hint: 'restore the dataset or start a new run' });
    }
  }
  try {
    // Reserve first: recovery and the run after it need the disk to have room.
    reserveSpace(paths, reserveBytes(manifest));
  } catch (error) {
    throw ledgerWriteError(paths.reserve, error);
  }
  const recovery = recoverLedger(paths);
  // One run, one price table: the prices it started with (older runs: today's, from now on).
  const prices = manifest.pricing ? fromPricingRecord(manifest.pricing) : runPrices(options);
  manifest.pricing ??= toPricingRecord(prices);
  manifest.status = 'running';
  manifest.resumed += 1;
  manifest.updated_at = new Date().toISOString();
  manifest.calls = recovery.counts;
  manifest.events.push({
    ts: manifest.updated_at,
    message: resumeMessage(recovery, manifest.units_planned),
  });
  saveManifest(paths, manifest);
  return { paths, manifest, done: recovery.committed, results: recovery.results, prices };
}

function create(options: OpenRunDirOptions, units: readonly Unit[]): OpenedRunDir {
  const { inputs } = options;
  if (options.runId !== undefined) checkRunId(options.runId);
  const runId = options.runId ?? newRunId();
  const dir = join(options.outDir ?? 'runs', runId);
  if (existsSync(dir)) throw new IsobudgetError('run_exists', `run directory already exists`, { location: { file: dir }, hint: 'use --resume to continue it, or pick another --run-id' });
  mkdirSync(dir, { recursive: true });
  const paths = runPaths(dir);
  const now = new Date().toISOString();
  const arms = describeArms(inputs, options.provider);
  const prices = runPrices(options);
  const manifest: Manifest = {
    schema_version: LEDGER_SCHEMA_VERSION,
    run_id: runId,
    experiment: inputs.config.experiment,
    status: 'running',
    created_at: now,
    updated_at: now,
    tool: { name: 'isobudget', version: TOOL_VERSION },
    node: process.version,
    config_path: inputs.config.configPath,
    config_hash: inputs.configHash,
    config: withoutCredentials(inputs.config),
    split: inputs.split,
    datasets: inputs.datasets,
    seed: inputs.config.seed,
    scorer: { name: inputs.config.scorer.type, version: TOOL_VERSION },
    selector: inputs.config.selector.type,
    n_mode: inputs.config.nMode,
    arms: arms.arms,
    units_planned: units.length,
    allow_overlap: inputs.allowOverlap,
    overlap: inputs.overlap,
    warnings: [...(inputs.warnings ?? []), ...arms.warnings, ...comparisonProblems(inputs.config).map((p) => `${p.message} (${p.key}: ${p.hint})`)],
    calls: emptyCallCounts(),
    events: [],
    resumed: 0,
    pricing: toPricingRecord(prices),
    ...(inputs.partial === undefined ? {} : { partial: inputs.partial }),
    ...(options.runOptions !== undefined && Object.keys(options.runOptions).length > 0 ? { run_options: options.runOptions } : {}),
    ...(options.sequential ? { sequential: { plan: sequentialPlan(inputs.config, options.sequential, inputs.cases.map((c) => c.id)), stopped_at: null, stop_reason: null } } : {}),
  };
  saveManifest(paths, manifest);
  try {
    reserveSpace(paths, reserveBytes(manifest));
  } catch (error) {
    throw ledgerWriteError(paths.reserve, error);
  }
  return { paths, manifest, done: new Set(), results: [], prices };
}

function runPrices(options: OpenRunDirOptions): PriceTable {
  return options.prices ?? buildPriceTable({ config: options.inputs.config.pricing });
}

/** The config as the manifest keeps it: URLs without `user:password@`. */
function withoutCredentials(config: RunInputs['config']): RunInputs['config'] {
  const { executor: given } = config;
  const executor = given.type === 'command' && given.gateway.upstream !== undefined ? { ...given, gateway: { ...given.gateway, upstream: withoutUserinfo(given.gateway.upstream) } } : given;
  return { ...config, provider: { ...config.provider, baseUrl: withoutUserinfo(config.provider.baseUrl) }, executor };
}

/** What a resume recovered, as one line (the manifest's event, and what `run --resume` prints). */
export function resumeMessage(recovery: Pick<ReturnType<typeof recoverLedger>, 'committed' | 'orphanedCalls' | 'unknownOutcomeCalls' | 'tornTails'>, planned: number): string {
  const aside = recovery.orphanedCalls + recovery.unknownOutcomeCalls;
  const moved = aside === 0 ? 'no call moved aside'
    : `${aside} call(s) moved aside to interrupted-calls.jsonl (${recovery.orphanedCalls} of uncommitted units, ${recovery.unknownOutcomeCalls} in flight with unknown outcome; spent, re-run)`;
  const torn = recovery.tornTails > 0 ? `, ${recovery.tornTails} torn line(s) cut` : '';
  return `resumed: ${recovery.committed.size} of ${planned} units committed, ${Math.max(0, planned - recovery.committed.size)} to go; ${moved}${torn}`;
}
