/**
 * What a worker holds for one run: the run's config (paths rebased to this machine) and
 * cases, its provider, executor, scorer and selector, and a RunContext whose ledger is the
 * database — built once per run and shared by every unit the worker takes of it. The unit
 * itself runs through the runner's own `runUnit`: no second copy of the execution logic.
 */
import { withoutUserinfo } from '../core/display-url.js';
import { IsobudgetError } from '../core/errors.js';
import type { EvalCase } from '../core/case.js';
import { readApiKey } from '../config/env.js';
import type { Database } from '../db/spec.js';
import { fromPricingRecord } from '../pricing/pricing-record.js';
import { buildPriceTable } from '../pricing/build-table.js';
import { createProvider } from '../providers/create-provider.js';
import { createScorer } from '../scorers/index.js';
import { createExecutor } from '../runner/execute-run.js';
import { armsFor, unitKey, type Unit } from '../runner/plan.js';
import { Semaphore } from '../runner/pool.js';
import type { UnitServices } from '../runner/run-unit.js';
import { createSelector } from '../runner/selectors/index.js';
import { runEstimation } from '../runner/estimate-prompt.js';
import type { RunContext } from '../runner/unit-context.js';
import type { GatewayIntent } from '../runner/executors/command/run-gateway.js';
import type { CallStart } from '../ledger/jsonl-writer.js';
import { checkCodeFiles, rebasePaths } from './code-files.js';
import { makeRedactor } from './ledger-rows.js';
import { loadStoredInputs, type RunRow, type UnitRow } from './run-store.js';
import { SharedRateLimiter } from './shared-rate-limit.js';
import type { UnitLedger } from './unit-ledger.js';

export interface RuntimeOptions {
  db: Database;
  /** This machine's project root (the submitter's root maps here). */
  root: string;
  env: NodeJS.ProcessEnv;
  signal: AbortSignal;
  simLatencyScale?: number;
  /** Run-level events (native n rejected, …): the worker logs them. */
  onEvent?: (runId: string, message: string) => void;
}

export interface RunRuntime {
  run: RunContext;
  services: UnitServices;
  redact: (text: string) => string;
  /** The unit of a job: its case, arm and epoch, from the stored inputs. */
  unitOf(row: UnitRow): Unit;
  /** Ledgers of the units this worker has in flight, by unit key. */
  ledgers: Map<string, UnitLedger>;
  close(): Promise<void>;
}

export async function openRunRuntime(row: RunRow, options: RuntimeOptions): Promise<RunRuntime> {
  // Before the first unit: every code file the run needs is here, byte for byte.
  checkCodeFiles(row.inputs.code_files, options.root, row.run_id);
  const stored = await loadStoredInputs(options.db, row);
  const config = rebasePaths(stored.config, row.inputs.root, options.root);
  const apiKey = readApiKey(config, options.env);
  const provider = createProvider(
    { protocol: config.provider.protocol, baseUrl: config.provider.baseUrl, apiKey, apiKeyEnv: config.provider.apiKeyEnv, timeoutMs: config.provider.timeoutMs, headers: config.provider.headers },
    { simSeed: config.seed, ...(options.simLatencyScale === undefined ? {} : { simLatencyScale: options.simLatencyScale }) },
  );
  const ledgers = new Map<string, UnitLedger>();
  const ledgerOf = (key: string): UnitLedger => {
    const ledger = ledgers.get(key);
    if (!ledger) throw new Error(`no unit in flight for ${key}`);
    return ledger;
  };
  const executor = createExecutor(config, options.env, {
    // Before a command agent's call leaves the run's gateway: its intent row, or the call does not go.
    onIntent: (intent) => ledgerOf(unitOfTags(intent.tags)).startGatewayCall(gatewayCallStart(row.run_id, intent), intent.callId),
    onCall: (record) => ledgers.get(unitOfTags(record.tags))?.recordFinished(record),
  });
  const scorer = createScorer(config.scorer);
  const run: RunContext = {
    runId: row.run_id,
    config,
    provider,
    baseUrl: withoutUserinfo(provider.baseUrl),
    pool: new Semaphore(config.concurrency),
    // Always on: even a run without rate_limit honours a 429's retry-after across its workers.
    limiter: new SharedRateLimiter(options.db, row.run_id, { requestsPerSecond: config.rateLimit, tokensPerMinute: config.tokenRateLimit }),
    promptExact: provider.protocol === 'sim',
    ...runEstimation(provider.protocol === 'sim'),
    nativeN: { enabled: config.nMode === 'native' },
    signal: options.signal,
    random: Math.random,
    startCall: (start) => ledgerOf(unitKey(start.split, start.case_id, start.arm, start.epoch)).startCall(start),
    onEvent: (message) => options.onEvent?.(row.run_id, message),
    onSpend: () => {},
    prices: row.manifest.pricing ? fromPricingRecord(row.manifest.pricing) : buildPriceTable({ config: config.pricing }),
  };
  const arms = new Map(armsFor(config.budget.bestOfN).map((arm) => [arm.arm, arm]));
  const cases = (name: string): Map<string, EvalCase> => new Map((stored.datasets[name] ?? []).map((c) => [c.id, c]));
  const bySplit = new Map<string, Map<string, EvalCase>>();
  return {
    run,
    services: { executor, scorer, selector: createSelector(config.selector, scorer) },
    redact: makeRedactor(apiKey ? [apiKey] : []),
    ledgers,
    unitOf(unit) {
      let table = bySplit.get(unit.split);
      if (!table) bySplit.set(unit.split, (table = cases(unit.split)));
      const evalCase = table.get(unit.case_id);
      const arm = arms.get(unit.arm);
      if (!evalCase || !arm) throw new IsobudgetError('db_missing_input', `run ${row.run_id}: unit ${unit.unit_key} is not in the stored inputs`, { hint: 're-submit the run' });
      return { key: unit.unit_key, split: unit.split, evalCase, arm, epoch: unit.epoch };
    },
    async close() {
      await provider.close?.();
      await executor.close?.();
    },
  };
}

/** The unit key a path's gateway key is tagged with (run-path.ts). */
function unitOfTags(tags: Record<string, string>): string {
  return unitKey((tags['split'] ?? '') as Unit['split'], tags['case'] ?? '', tags['arm'] ?? '', Number(tags['epoch'] ?? 0));
}

/** A gateway call's intent in the ledger's terms: the path from the key's tags, the most it can bill from its reservation. */
export function gatewayCallStart(runId: string, intent: GatewayIntent): CallStart {
  const { tags } = intent;
  const int = (value: string | undefined): number => (Number.isInteger(Number(value)) ? Number(value) : 0);
  return {
    run_id: runId, case_id: tags['case'] ?? '-', arm: tags['arm'] ?? 'gateway', n: int(tags['n']) || 1, path: int(tags['path']), paths: 1,
    epoch: int(tags['epoch']), split: (tags['split'] ?? 'val') as Unit['split'], model: intent.model, base_url: intent.baseUrl, protocol: intent.protocol,
    role: 'gateway', attempt: 1, max_tokens: intent.maxTokens ?? 0, reserved_tokens: intent.tokens,
  };
}
