/**
 * Executes a planned run: schedules units under the global call pool, commits each unit
 * to the ledger whole, keeps the manifest current, and stops cleanly on abort — and on a
 * failed write (disk full), with the manifest marked `interrupted` and the error rethrown.
 */
import { runEstimation } from './estimate-prompt.js';
import { setMaxListeners } from 'node:events';
import { withoutUserinfo } from '../core/display-url.js';
import { IsobudgetError } from '../core/errors.js';
import { LedgerWriter } from '../ledger/jsonl-writer.js';
import type { Manifest, RunOptionsRecord } from '../ledger/manifest.js';
import type { CallRecord, ResultRecord } from '../ledger/records.js';
import { releaseSpace } from '../ledger/run-dir.js';
import type { Provider } from '../providers/spec.js';
import { createScorer } from '../scorers/index.js';
import { createSelector } from '../runner/selectors/index.js';
import { agentExecutor } from './executors/agent.js';
import { chatExecutor } from './executors/chat.js';
import { commandExecutor } from './executors/command.js';
import type { RunInputs } from './inputs.js';
import { armsFor, planUnits, } from './plan.js';
import { openRunDir, saveManifest } from './open-run-dir.js';
import { ledgerHashes } from '../ledger/ledger-hashes.js';
import { RateLimiter, Semaphore } from './pool.js';
import { Progress, type ProgressSink } from './progress.js';
import { createUnitContext, runUnit, type UnitServices } from './run-unit.js';
import type { Executor, RequestLimiter, RunContext } from './unit-context.js';
import { TokenBucket } from './token-bucket.js';
import type { ExperimentConfig, SequentialConfig } from '../config/types.js';
import { replaySequential, type SequentialOutcome } from './sequential-monitor.js';
import { planQueue, sequentialQueue, type UnitQueue } from './unit-queue.js';
import type { PriceTable } from '../pricing/price-table.js';
import type { RunGatewayHooks } from './executors/command/run-gateway.js';
import { openRunCap, type RunCapLimits } from './run-cap-session.js';
import { FailFast, watchedProvider } from './fail-fast.js';

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
   * Called once every unit is committed and the manifest — still `running`, with its final call
   * counts and ledger hashes — is saved; the run is marked `complete` only after it returns.
   * The CLI writes verdict.json here, so a kill before the verdict leaves a run that
   * `--resume` finishes (it finds nothing to run and decides).
   */
  beforeComplete?: (runDir: string) => void | Promise<void>;
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
  /** Prices for `cost_usd` (default: the dated table under the config's `pricing:`); a resumed run keeps its own. */
  prices?: PriceTable;
  /** Options outside the config, recorded in a new run's manifest for `--resume` (e.g. the sim latency scale). */
  runOptions?: RunOptionsRecord;
  /**
   * Called after each unit is committed, with its calls and result (e.g. `run --otel-endpoint`
   * streams them). Must be quick and must not throw; a throw is swallowed, never fails the run.
   */
  onUnitCommitted?: (calls: readonly CallRecord[], result: ResultRecord) => void;
  /** Run-level cap (default: the config's `budget.max_total_tokens` / `max_cost_usd`); see run-cap.ts. */
  cap?: RunCapLimits;
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
  /** Why the run stopped starting units before its plan was done (the run-level cap); the run is then `interrupted`. */
  stopReason?: string;
}

export async function executeRun(options: ExecuteRunOptions): Promise<ExecuteRunResult> {
  const { inputs, provider } = options;
  const { config } = inputs;
  const units = planUnits({ split: inputs.split, cases: inputs.cases, regressionCases: inputs.regressionCases, bestOfN: config.budget.bestOfN, epochs: config.epochs, ...(inputs.variants ? { variants: inputs.variants } : {}) });
  const opened = openRunDir(options, units);
  const { paths, manifest, done } = opened;
  // Primed with what a resumed run committed before: it reaches the same stop as an uninterrupted run.
  const monitor = manifest.sequential ? replaySequential(manifest.sequential.plan, opened.results) : undefined;
  const keepResults = options.keepResults !== false;
  const results = keepResults ? opened.results : [];
  let unitsCommitted = done.size;
  options.onStart?.(manifest);
  const abort = new AbortController();
  // Every in-flight attempt listens on the run signal.
  setMaxListeners(0, abort.signal);
  const writer = new LedgerWriter(paths, {
    redact: makeRedactor(options.secrets ?? []),
    session: `s${manifest.resumed}`,
    ...(manifest.calls ? { counts: manifest.calls } : {}),
    // A failed write stops the run: nothing after it could be committed.
    onFailure: (error) => abort.abort(error),
  });
  const onOuterAbort = (): void => abort.abort(new IsobudgetError('interrupted', 'run interrupted'));
  options.signal?.addEventListener('abort', onOuterAbort, { once: true });
  if (options.signal?.aborted) onOuterAbort();

  const pending = units.filter((u) => !done.has(u.key));
  const failFast = new FailFast({ baseUrl: withoutUserinfo(provider.baseUrl), configPath: config.configPath }, (error) => abort.abort(error));
  const cap = openRunCap(options.cap ?? { maxTotalTokens: config.budget.maxTotalTokens, maxCostUsd: config.budget.maxCostUsd }, paths, config, opened.prices);
  const progress = new Progress({ total: pending.length, sink: options.progress, arms: armsFor(config.budget.bestOfN) });
  const run: RunContext = {
    runId: manifest.run_id,
    config,
    provider: watchedProvider(provider, failFast),
    baseUrl: withoutUserinfo(provider.baseUrl),
    pool: new Semaphore(config.concurrency),
    limiter: runLimiter(config),
    promptExact: provider.protocol === 'sim' || inputs.promptExact === true,
    ...runEstimation(provider.protocol === 'sim' || inputs.promptExact === true),
    nativeN: { enabled: config.nMode === 'native' },
    signal: abort.signal,
    random: options.random ?? Math.random,
    startCall: (start) => writer.startCall(start),
    onEvent: (message) => {
      manifest.events.push({ ts: new Date().toISOString(), message });
      try {
        saveManifest(paths, manifest);
      } catch (error) {
        writer.fail(error as IsobudgetError);
        throw error;
      }
    },
    onSpend: (arm, tokens) => progress.addSpend(arm, tokens),
    prices: opened.prices,
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
  let capStopRecorded = false;
  const lanes = Math.max(1, Math.min(pending.length, config.concurrency * 2));
  const worker = async (): Promise<void> => {
    while (!abort.signal.aborted) {
      const unit = queue.next();
      if (!unit) return;
      const reservation = cap.reserve(unit);
      if (reservation === false) {
        // Units in flight finish and are committed; the rest wait for a --resume with a higher cap.
        if (!capStopRecorded) run.onEvent(`stopped starting units: ${cap.stopReason ?? 'run-level cap'}`);
        capStopRecorded = true;
        return;
      }
      const context = createUnitContext(run, unit);
      try {
        const outcome = await runUnit(run, unit, services, context).finally(() => cap.settle(reservation, context.calls));
        if (abort.signal.aborted) {
          if (writer.failure === undefined) writer.recordInterrupted(context.calls);
          return;
        }
        writer.commitUnit(context.calls, outcome.result);
        queue.committed(outcome.result);
        try {
          options.onUnitCommitted?.(context.calls, outcome.result);
        } catch {
          // An observer (an exporter) never fails the run.
        }
        if (keepResults) results.push(outcome.result);
        unitsCommitted += 1;
        progress.unitDone(outcome.result);
      } catch (error) {
        if (!abort.signal.aborted) throw error;
        // Calls this unit finished before the stop were billed: keep them apart, not lost.
        if (writer.failure === undefined) writer.recordInterrupted(context.calls);
        return;
      }
    }
  };
  let failure: unknown;
  try {
    await Promise.all(Array.from({ length: lanes }, worker));
  } catch (error) {
    failure = error;
    abort.abort(error);
  }
  try {
    writer.close();
  } catch (error) {
    failure ??= error;
  } finally {
    options.signal?.removeEventListener('abort', onOuterAbort);
    await provider.close?.();
    await executor.close?.();
  }
  failure ??= writer.failure ?? failFast.tripped;
  progress.finish();
  const interrupted = abort.signal.aborted || failure !== undefined || cap.stopReason !== undefined;
  manifest.status = interrupted ? 'interrupted' : 'complete';
  manifest.updated_at = new Date().toISOString();
  manifest.calls = writer.counts;
  // The reserve exists for this write: on a full disk it is the room the manifest needs.
  releaseSpace(paths);
  if (failure !== undefined) {
    try {
      saveManifest(paths, manifest);
    } catch {
      // The disk refuses even that: the manifest says `running`, and --resume still works.
    }
    throw failure;
  }
  if (!interrupted) {
    manifest.ledger_sha256 = ledgerHashes(paths);
    if (options.beforeComplete) {
      manifest.status = 'running';
      saveManifest(paths, manifest);
      await options.beforeComplete(paths.dir);
      manifest.status = 'complete';
      manifest.updated_at = new Date().toISOString();
    }
  }
  saveManifest(paths, manifest);
  return { runId: manifest.run_id, runDir: paths.dir, manifest, results, unitsCommitted, interrupted, ...(monitor ? { sequential: monitor.outcome() } : {}), ...(cap.stopReason === undefined ? {} : { stopReason: cap.stopReason }) };
}

/**
 * The executor `config.executor` names; `close` ends what it started (the command executor's
 * gateway). `gatewayHooks` let a distributed worker book each call of a command agent
 * durably: its intent before it leaves, its record as it finishes.
 */
export function createExecutor(config: ExperimentConfig, env: NodeJS.ProcessEnv, gatewayHooks?: RunGatewayHooks): Executor & { close?(): Promise<void> } {
  switch (config.executor.type) {
    case 'agent': return agentExecutor(config.executor);
    case 'command': return commandExecutor(config, config.executor, env, gatewayHooks);
    default: return chatExecutor();
  }
}

/** `rate_limit` of an embedded run: request pacing and a tokens-per-minute bucket, in this process. */
export function runLimiter(config: ExperimentConfig): RequestLimiter | undefined {
  if (config.rateLimit === undefined && config.tokenRateLimit === undefined) return undefined;
  const requests = config.rateLimit === undefined ? undefined : new RateLimiter(config.rateLimit);
  const tokens = config.tokenRateLimit === undefined ? undefined : new TokenBucket(config.tokenRateLimit);
  return {
    async wait(signal, reserved) {
      await requests?.wait(signal);
      if (tokens && reserved !== undefined) await tokens.take(reserved, signal);
    },
  };
}

function makeRedactor(secrets: string[]): (line: string) => string {
  const real = secrets.filter((s) => s.length >= 8);
  if (real.length === 0) return (line) => line;
  return (line) => real.reduce((text, secret) => text.split(secret).join('[redacted]'), line);
}
