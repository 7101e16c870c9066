/**
 * Executes a planned run: schedules units under the global call pool, commits each unit
 * to the ledger whole, keeps the manifest current, and stops cleanly on abort.
 */
import { mkdirSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { setMaxListeners } from 'node:events';
import { IsobudgetError } from '../core/errors.js';
import { LedgerWriter } from '../ledger/jsonl-writer.js';
import type { Manifest } from '../ledger/manifest.js';
import { LEDGER_SCHEMA_VERSION, type ResultRecord } from '../ledger/records.js';
import { recoverLedger } from '../ledger/recover.js';
import { newRunId, readJsonFile, runPaths, writeJsonAtomic, type RunPaths } from '../ledger/run-dir.js';
import type { Provider } from '../providers/spec.js';
import { createScorer } from '../scorers/index.js';
import { createSelector } from '../runner/selectors/index.js';
import { TOOL_VERSION } from '../version.js';
import { agentExecutor } from './executors/agent.js';
import { chatExecutor } from './executors/chat.js';
import { commandExecutor } from './executors/command.js';
import type { RunInputs } from './inputs.js';
import { armsFor, planUnits, type Unit } from './plan.js';
import { describeArms } from './arm-plan.js';
import { RateLimiter, Semaphore } from './pool.js';
import { Progress, type ProgressSink } from './progress.js';
import { runUnit, type UnitServices } from './run-unit.js';
import type { Executor, RunContext } from './unit-context.js';
import type { ExperimentConfig, SequentialConfig } from '../config/types.js';
import { replaySequential, type SequentialOutcome } from './sequential-monitor.js';
import { sequentialPlan } from './sequential-plan.js';
import { planQueue, sequentialQueue, type UnitQueue } from './unit-queue.js';

export interface ExecuteRunOptions {
  inputs: RunInputs;
  provider: Provider;
  /** Parent directory of run directories (a new run) … */
  outDir?: string;
  /** … or an existing run directory to continue. */
  resumeDir?: string;
  runId?: string;
  progress?: ProgressSink;
  signal?: AbortSignal;
  /**
   * The environment the run reads (the command executor's upstream key and its agents' env);
   * default process.env. runExperiment passes the one its caller gave it.
   */
  env?: NodeJS.ProcessEnv;
  /** Strings that must never reach the ledger (API keys); scrubbed as a last line of defence. */
  secrets?: string[];
  random?: () => number;
  /** Called once the run directory and manifest exist, before the first call. */
  onStart?: (manifest: Manifest) => void;
  /**
   * Keep every result record in memory and return it (default true, handy for library use).
   * The CLI passes false: results are in results.jsonl anyway, and a 1,000-case run's
   * records (~20 MB of objects) would otherwise stay live for the whole run.
   */
  keepResults?: boolean;
  /**
   * Sequential screening (issue 14) of a new run: cases in a seeded order, an anytime-valid test
   * after each block, no new case once it decides. A resumed run keeps its manifest's plan.
   */
  sequential?: SequentialConfig;
}

export interface ExecuteRunResult {
  runId: string;
  runDir: string;
  manifest: Manifest;
  /** Every committed result (earlier ones too, on resume); empty with `keepResults: false`. */
  results: ResultRecord[];
  /** Units committed to the ledger, this session and before it. */
  unitsCommitted: number;
  interrupted: boolean;
  /** The sequential decision (stop, evidence, tokens) of a sequential run. */
  sequential?: SequentialOutcome;
}

export async function executeRun(options: ExecuteRunOptions): Promise<ExecuteRunResult> {
  const { inputs, provider } = options;
  const { config } = inputs;
  const units = planUnits({ split: inputs.split, cases: inputs.cases, regressionCases: inputs.regressionCases, bestOfN: config.budget.bestOfN, epochs: config.epochs });
  const opened = openRunDir(options, units);
  const { paths, manifest, done } = opened;
  // Primed with what a resumed run committed before: it reaches the same stop as an uninterrupted run.
  const monitor = manifest.sequential ? replaySequential(manifest.sequential.plan, opened.results) : undefined;
  const keepResults = options.keepResults !== false;
  const results = keepResults ? opened.results : [];
  let unitsCommitted = done.size;
  options.onStart?.(manifest);
  const redact = makeRedactor(options.secrets ?? []);
  const writer = new LedgerWriter(paths, redact);
  const abort = new AbortController();
  // Every in-flight attempt listens on the run signal.
  setMaxListeners(0, abort.signal);
  const onOuterAbort = (): void => abort.abort(new IsobudgetError('interrupted', 'run interrupted'));
  options.signal?.addEventListener('abort', onOuterAbort, { once: true });
  if (options.signal?.aborted) onOuterAbort();

  const pending = units.filter((u) => !done.has(u.key));
  const progress = new Progress({ total: pending.length, sink: options.progress, arms: armsFor(config.budget.bestOfN) });
  const run: RunContext = {
    runId: manifest.run_id,
    config,
    provider,
    pool: new Semaphore(config.concurrency),
    limiter: config.rateLimit === undefined ? undefined : new RateLimiter(config.rateLimit),
    promptExact: provider.protocol === 'sim' || inputs.promptExact === true,
    nativeN: { enabled: config.nMode === 'native' },
    signal: abort.signal,
    random: options.random ?? Math.random,
    onEvent: (message) => {
      manifest.events.push({ ts: new Date().toISOString(), message });
      writeJsonAtomic(paths.manifest, manifest);
    },
    onSpend: (arm, tokens) => progress.addSpend(arm, tokens),
  };
  const queue: UnitQueue = monitor ? sequentialQueue(pending, monitor, (stop) => {
    const sequential = manifest.sequential;
    if (!sequential || sequential.stopped_at !== null) return;
    sequential.stopped_at = stop.atCases;
    sequential.stop_reason = stop.reason;
    run.onEvent(`sequential: stopped after ${stop.atCases} of ${sequential.plan.order.length} cases (${stop.reason}); cases in flight finish and are recorded`);
  }) : planQueue(pending);
  const scorer = createScorer(config.scorer);
  const executor = createExecutor(config, options.env ?? process.env);
  const services: UnitServices = { executor, scorer, selector: createSelector(config.selector, scorer) };

  // Enough units in flight to keep every call slot busy (a native-n unit is one call,
  // a parallel one n), without holding the whole plan in memory at once.
  const lanes = Math.max(1, Math.min(pending.length, config.concurrency * 2));
  const worker = async (): Promise<void> => {
    while (!abort.signal.aborted) {
      const unit = queue.next();
      if (!unit) return;
      try {
        const outcome = await runUnit(run, unit, services);
        if (abort.signal.aborted) {
          writer.recordInterrupted(outcome.context.calls);
          return;
        }
        writer.commitUnit(outcome.context.calls, outcome.result);
        queue.committed(outcome.result);
        if (keepResults) results.push(outcome.result);
        unitsCommitted += 1;
        progress.unitDone(outcome.result);
      } catch (error) {
        if (!abort.signal.aborted) throw error;
        return;
      }
    }
  };
  try {
    await Promise.all(Array.from({ length: lanes }, worker));
  } catch (error) {
    abort.abort(error);
    throw error;
  } finally {
    writer.close();
    options.signal?.removeEventListener('abort', onOuterAbort);
    await provider.close?.();
    await executor.close?.();
  }
  progress.finish();
  const interrupted = abort.signal.aborted;
  manifest.status = interrupted ? 'interrupted' : 'complete';
  manifest.updated_at = new Date().toISOString();
  writeJsonAtomic(paths.manifest, manifest);
  return { runId: manifest.run_id, runDir: paths.dir, manifest, results, unitsCommitted, interrupted, ...(monitor ? { sequential: monitor.outcome() } : {}) };
}

function openRunDir(options: ExecuteRunOptions, units: Unit[]): { paths: RunPaths; manifest: Manifest; done: Set<string>; results: ResultRecord[] } {
  const { inputs } = options;
  if (options.resumeDir) {
    const paths = runPaths(options.resumeDir);
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
    const recovery = recoverLedger(paths);
    manifest.status = 'running';
    manifest.resumed += 1;
    manifest.updated_at = new Date().toISOString();
    manifest.events.push({ ts: manifest.updated_at, message: `resumed: ${recovery.committed.size} units committed, ${recovery.orphanedCalls} orphaned calls moved to interrupted-calls.jsonl` });
    writeJsonAtomic(paths.manifest, manifest);
    return { paths, manifest, done: recovery.committed, results: recovery.results };
  }
  const runId = options.runId ?? newRunId();
  const dir = join(options.outDir ?? 'runs', runId);
  if (existsSync(dir)) throw new IsobudgetError('run_exists', `run directory already exists`, { location: { file: dir }, hint: 'use --resume to continue it, or pick another --run-id' });
  mkdirSync(dir, { recursive: true });
  const paths = runPaths(dir);
  const now = new Date().toISOString();
  const arms = describeArms(inputs, options.provider);
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
    config: inputs.config,
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
    warnings: arms.warnings,
    events: [],
    resumed: 0,
    ...(options.sequential ? { sequential: { plan: sequentialPlan(inputs.config, options.sequential, inputs.cases.map((c) => c.id)), stopped_at: null, stop_reason: null } } : {}),
  };
  writeJsonAtomic(paths.manifest, manifest);
  return { paths, manifest, done: new Set(), results: [] };
}

/** The executor `config.executor` names; `close` ends what it started (the command executor's gateway). */
function createExecutor(config: ExperimentConfig, env: NodeJS.ProcessEnv): Executor & { close?(): Promise<void> } {
  switch (config.executor.type) {
    case 'agent': return agentExecutor(config.executor);
    case 'command': return commandExecutor(config, config.executor, env);
    default: return chatExecutor();
  }
}

function makeRedactor(secrets: string[]): (line: string) => string {
  const real = secrets.filter((s) => s.length >= 8);
  if (real.length === 0) return (line) => line;
  return (line) => real.reduce((text, secret) => text.split(secret).join('[redacted]'), line);
}
