/**
 * `rescore --allow-calls`: judge scorers (and a verifier selector's judge) call a model again,
 * budgeted like a run. The calls go through the run's provider config and callModel —
 * retried, each attempt's intent on disk before it is sent, recorded in the new run's
 * calls.jsonl with role `judge` — and count toward B only with `budget.include_judge`, against
 * what the unit's generation already spent. The source's judge calls measured the old
 * scorer: they are left out of the new ledger, and each unit's totals are moved by the
 * difference, so calls.jsonl and results.jsonl still add up (src/ledger/ledger-totals.ts).
 */
import { setMaxListeners } from 'node:events';
import { readApiKey } from '../config/index.js';
import type { ExperimentConfig } from '../config/types.js';
import type { EvalCase } from '../core/case.js';
import { withoutUserinfo } from '../core/display-url.js';
import { BudgetTracker } from '../budget/budget-tracker.js';
import { OUTCOME_UNKNOWN } from '../ledger/call-intents.js';
import { LedgerWriter } from '../ledger/jsonl-writer.js';
import type { LedgerFiles } from '../ledger/ledger-files.js';
import type { CallCounts, Manifest } from '../ledger/manifest.js';
import type { CallRecord, ResultRecord } from '../ledger/records.js';
import { buildPriceTable } from '../pricing/build-table.js';
import { fromPricingRecord } from '../pricing/pricing-record.js';
import { createProvider } from '../providers/create-provider.js';
import { runEstimation } from '../runner/estimate-prompt.js';
import { runLimiter } from '../runner/execute-run.js';
import { FailFast, watchedProvider } from '../runner/fail-fast.js';
import { modelAccessFor } from '../runner/model-access.js';
import { unitKey } from '../runner/plan.js';
import { Semaphore } from '../runner/pool.js';
import type { RunContext, UnitContext } from '../runner/unit-context.js';
import type { ModelAccess } from '../scorers/index.js';

export interface JudgeCallSession {
  /** A unit's model access: judge calls reserve from B (include_judge) after its generation. */
  unit(result: ResultRecord, evalCase: EvalCase, kept: readonly CallRecord[]): { models: ModelAccess; context: UnitContext };
  /** Commits one unit: its new judge calls and the result with its totals moved to match. */
  commit(context: UnitContext, rescored: ResultRecord, dropped: readonly CallRecord[]): void;
  close(): CallCounts;
  /** Why the calls stopped (fail fast, Ctrl-C, a ledger write); undefined while they run. */
  stopped(): unknown;
}

const isJudging = (call: CallRecord): boolean => call.role === 'judge' || call.role === 'select';

export function openJudgeCalls(options: { manifest: Manifest; config: ExperimentConfig; runId: string; files: LedgerFiles; keptCalls: number; env: NodeJS.ProcessEnv; signal: AbortSignal }): JudgeCallSession {
  const { config } = options;
  const apiKey = readApiKey(config, options.env);
  const provider = createProvider(
    { protocol: config.provider.protocol, baseUrl: config.provider.baseUrl, apiKey, apiKeyEnv: config.provider.apiKeyEnv, timeoutMs: config.provider.timeoutMs, headers: config.provider.headers },
    { simSeed: config.seed },
  );
  const secrets = apiKey !== undefined && apiKey.length >= 8 ? [apiKey] : [];
  const writer = new LedgerWriter(options.files, {
    redact: (line) => secrets.reduce((text, secret) => text.split(secret).join('[redacted]'), line),
    session: 'rescore',
    counts: { ...(options.manifest.calls ?? { committed: 0, spent_unused: 0, outcome_unknown: 0, spent_unused_tokens: 0, outcome_unknown_max_tokens: 0 }), committed: options.keptCalls },
  });
  // As in a run: a provider that cannot work stops the rescore after its first few attempts.
  const abort = new AbortController();
  // Every in-flight attempt listens on it (as on a run's signal).
  setMaxListeners(0, abort.signal);
  const onOuterAbort = (): void => abort.abort(options.signal.reason);
  options.signal.addEventListener('abort', onOuterAbort, { once: true });
  const failFast = new FailFast({ baseUrl: withoutUserinfo(provider.baseUrl), configPath: config.configPath }, (error) => abort.abort(error));
  const exact = provider.protocol === 'sim';
  const run: RunContext = {
    runId: options.runId,
    config,
    provider: watchedProvider(provider, failFast),
    baseUrl: withoutUserinfo(provider.baseUrl),
    pool: new Semaphore(config.concurrency),
    // The run's rate_limit paces its judges too: a rescore is not a way around it.
    limiter: runLimiter(config),
    promptExact: exact,
    ...runEstimation(exact),
    nativeN: { enabled: false },
    signal: abort.signal,
    random: Math.random,
    startCall: (start) => writer.startCall(start),
    onEvent: () => undefined,
    onSpend: () => undefined,
    prices: options.manifest.pricing ? fromPricingRecord(options.manifest.pricing) : buildPriceTable({ config: config.pricing }),
  };
  return {
    unit(result, evalCase, kept) {
      const budget = new BudgetTracker(result.budget);
      // What the unit's generation already booked; judging comes on top of it within B.
      const spent = kept.filter((c) => !isJudging(c)).reduce((sum, c) => sum + (c.booked_tokens ?? c.total_tokens ?? 0), 0);
      if (spent > 0 && budget.reserve(spent)) budget.settle(spent, spent);
      const arm = { arm: result.arm, variant: result.variant, n: result.n };
      const context: UnitContext = { run, unit: { key: unitKey(result.split, result.case_id, result.arm, result.epoch), split: result.split, evalCase, arm, epoch: result.epoch }, budget, calls: [] };
      return { models: modelAccessFor(context), context };
    },
    commit(context, rescored, dropped) {
      // A unit judged after the stop holds refusals, not scores: its calls are kept apart.
      if (abort.signal.aborted) {
        writer.recordInterrupted(context.calls);
        return;
      }
      writer.commitUnit(context.calls, withTotals(rescored, dropped, context.calls, config.budget.includeJudge, context.budget.overspend > 0));
    },
    close() {
      options.signal.removeEventListener('abort', onOuterAbort);
      writer.close();
      return writer.counts;
    },
    stopped: () => (abort.signal.aborted ? (abort.signal.reason ?? new Error('rescore interrupted')) : writer.failure),
  };
}

/** The result's totals with the dropped calls taken out and the new ones put in, by the rules of run-unit.ts. */
function withTotals(result: ResultRecord, dropped: readonly CallRecord[], added: readonly CallRecord[], includeJudge: boolean, overBudget: boolean): ResultRecord {
  const counts = (c: CallRecord): boolean => includeJudge || !isJudging(c);
  const tokens = (calls: readonly CallRecord[], field: 'prompt_tokens' | 'completion_tokens' | 'total_tokens'): number | undefined => {
    let sum = 0;
    for (const c of calls.filter(counts)) {
      if (c.note === OUTCOME_UNKNOWN) sum += field === 'total_tokens' ? (c.reserved_tokens ?? c.booked_tokens ?? 0) : 0;
      else if (c.error === undefined) {
        if (c.usage_missing || typeof c[field] !== 'number') return undefined;
        sum += c[field] ?? 0;
      }
    }
    return sum;
  };
  const moved = (field: 'prompt_tokens' | 'completion_tokens' | 'total_tokens'): number | undefined => {
    const before = result[field];
    const out = tokens(dropped, field);
    const into = tokens(added, field);
    return before === undefined || out === undefined || into === undefined ? undefined : before - out + into;
  };
  const cost = (calls: readonly CallRecord[]): number | null => {
    let sum = 0;
    for (const c of calls.filter((x) => counts(x) && x.error === undefined)) {
      if (typeof c.cost_usd !== 'number') return null;
      sum += c.cost_usd;
    }
    return sum;
  };
  const [out, into] = [cost(dropped), cost(added)];
  const answered = (calls: readonly CallRecord[]) => calls.filter((c) => c.error === undefined);
  const judged = answered(added).filter(isJudging);
  return {
    ...result,
    prompt_tokens: moved('prompt_tokens'),
    completion_tokens: moved('completion_tokens'),
    total_tokens: moved('total_tokens'),
    cost_usd: result.cost_usd === null || result.cost_usd === undefined || out === null || into === null ? null : result.cost_usd - out + into,
    judge_tokens: judged.length === 0 ? undefined : judged.some((c) => c.usage_missing) ? undefined : judged.reduce((sum, c) => sum + (c.total_tokens ?? 0), 0),
    calls: result.calls - dropped.length + added.length,
    retries: result.retries - dropped.filter((c) => c.retried).length + added.filter((c) => c.retried).length,
    calls_missing_usage: result.calls_missing_usage - answered(dropped).filter((c) => c.usage_missing).length + answered(added).filter((c) => c.usage_missing).length,
    calls_outcome_unknown: (result.calls_outcome_unknown ?? 0) - dropped.filter((c) => c.note === OUTCOME_UNKNOWN).length + added.filter((c) => c.note === OUTCOME_UNKNOWN).length,
    over_budget: result.over_budget || overBudget,
  };
}
