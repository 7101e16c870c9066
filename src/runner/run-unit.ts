/** Runs one unit: executor → scorer per path → selector → result record. */
import { OUTCOME_UNKNOWN } from '../ledger/call-intents.js';
import { LEDGER_SCHEMA_VERSION, type CallRecord, type PathOutcome, type ResultRecord } from '../ledger/records.js';
import { callCostUsd } from '../pricing/call-cost.js';
import type { PriceTable } from '../pricing/price-table.js';
import type { Scorer, Score } from '../scorers/index.js';
import type { Selector } from './selectors/index.js';
import { countTokens } from '../core/tokens.js';
import type { ModelAccess } from '../scorers/index.js';
import { BudgetTracker } from '../budget/budget-tracker.js';
import { modelAccessFor } from './model-access.js';
import type { Unit } from './plan.js';
import type { Executor, PathRun, RunContext, UnitContext } from './unit-context.js';

export interface UnitServices {
  executor: Executor;
  scorer: Scorer;
  selector: Selector;
}

export interface UnitOutcome {
  context: UnitContext;
  result: ResultRecord;
}

/** A unit's spending state; the caller may hold it to keep the calls of a unit that is aborted. */
export function createUnitContext(run: RunContext, unit: Unit): UnitContext {
  return { run, unit, budget: new BudgetTracker(run.config.budget.totalTokensPerCase), calls: [] };
}

export async function runUnit(run: RunContext, unit: Unit, services: UnitServices, context = createUnitContext(run, unit)): Promise<UnitOutcome> {
  const started = performance.now();
  const paths = await services.executor.run(context);
  // Latency is the product's: generation only, not the time spent judging or selecting.
  const latencyMs = Math.round(performance.now() - started);
  const models = modelAccessFor(context);
  const scores = await Promise.all(paths.map((path) => scorePath(services.scorer, path, unit, run.signal, models)));
  const outputs = paths.map((p) => p.text);
  const selection = unit.arm.n === 1 ? { index: 0 as number | undefined } : await services.selector.select({ outputs, evalCase: unit.evalCase, scores, signal: run.signal, models });
  return { context, result: buildResult(context, paths, scores, selection.index, latencyMs) };
}

async function scorePath(scorer: Scorer, path: PathRun, unit: Unit, signal: AbortSignal, models: ModelAccess): Promise<Score> {
  // A path that ran out of budget or failed is a failure of that path whatever its text says.
  if (path.finishReason === 'budget_exhausted' || path.finishReason === 'error') {
    return { passed: false, value: 0, explanation: path.finishReason };
  }
  try {
    return await scorer.score({ output: path.text, evalCase: unit.evalCase, signal, models, path: path.path });
  } catch (error) {
    return { passed: false, value: 0, error: error instanceof Error ? error.message : String(error) };
  }
}

function buildResult(context: UnitContext, paths: PathRun[], scores: Score[], selected: number | undefined, latencyMs: number): ResultRecord {
  const { run, unit, calls } = context;
  const outcomes: PathOutcome[] = paths.map((path, i) => ({
    path: path.path,
    output: path.text,
    passed: scores[i]?.passed ?? false,
    score: scores[i]?.value ?? 0,
    finish_reason: path.finishReason,
    tokens: path.tokens,
    output_tokens: countTokens(path.text),
    error: path.error ?? scores[i]?.error,
    judge: scores[i]?.judge,
    turns: path.turns,
    trajectory: path.trajectory,
  }));
  const answered = calls.filter((c) => c.error === undefined);
  const missing = answered.filter((c) => c.usage_missing).length;
  const isJudging = (c: (typeof calls)[number]): boolean => c.role === 'judge' || c.role === 'select';
  const countsToward = (c: (typeof calls)[number]): boolean => !isJudging(c) || run.config.budget.includeJudge;
  // What counts toward B: generation, plus judging when budget.include_judge says so.
  const counted = answered.filter(countsToward);
  const countedMissing = counted.filter((c) => c.usage_missing).length;
  // Attempts that may have been billed but never said: booked at their reservations, counted.
  const unknown = calls.filter((c) => c.note === OUTCOME_UNKNOWN);
  const countedUnknown = unknown.filter(countsToward).map((c) => worstCase(c, run.prices));
  const unknownTokens = countedUnknown.reduce((acc, c) => acc + c.total_tokens, 0);
  // Unknown is not zero: one unanswered usage makes the unit's total unknown.
  const sum = (field: 'prompt_tokens' | 'completion_tokens' | 'total_tokens'): number | undefined =>
    countedMissing > 0 ? undefined : counted.reduce((acc, c) => acc + (c[field] ?? 0), 0) + countedUnknown.reduce((acc, c) => acc + c[field], 0);
  // Money for exactly what total_tokens counts: unknown when any counted call has no price.
  const costs = [...counted.map((c) => c.cost_usd), ...countedUnknown.map((c) => c.cost_usd)];
  const cost = countedMissing > 0 || costs.some((c) => typeof c !== 'number') ? null : costs.reduce<number>((acc, c) => acc + (c ?? 0), 0);
  const judging = answered.filter(isJudging);
  const judgingUnknown = unknown.filter(isJudging).reduce((acc, c) => acc + (c.reserved_tokens ?? 0), 0);
  const judgeTokens = judging.length === 0 || judging.some((c) => c.usage_missing) ? undefined : judging.reduce((acc, c) => acc + (c.total_tokens ?? 0), 0) + judgingUnknown;
  const passes = outcomes.filter((o) => o.passed).length;
  const chosen = selected === undefined ? undefined : outcomes[selected];
  return {
    schema_version: LEDGER_SCHEMA_VERSION,
    kind: 'result',
    run_id: run.runId,
    case_id: unit.evalCase.id,
    arm: unit.arm.arm,
    variant: unit.arm.variant,
    n: unit.arm.n,
    epoch: unit.epoch,
    split: unit.split,
    category: unit.evalCase.category,
    cluster: unit.evalCase.cluster,
    passed: chosen?.passed ?? false,
    passed_any: passes > 0,
    passes,
    selected_path: selected,
    judge_score: chosen?.judge && chosen.judge.error === undefined ? chosen.judge.score : undefined,
    paths: outcomes,
    prompt_tokens: sum('prompt_tokens'),
    completion_tokens: sum('completion_tokens'),
    total_tokens: sum('total_tokens'),
    cost_usd: cost,
    judge_tokens: judgeTokens,
    calls_missing_usage: missing,
    calls_outcome_unknown: unknown.length,
    outcome_unknown_tokens: unknownTokens,
    calls: calls.length,
    retries: calls.filter((c) => c.retried).length,
    budget: run.config.budget.totalTokensPerCase,
    budget_exhausted: outcomes.some((o) => o.finish_reason === 'budget_exhausted'),
    over_budget: context.budget.overspend > 0,
    latency_ms: latencyMs,
    ts: new Date().toISOString(),
  };
}

/**
 * An attempt of unknown outcome at its worst case, as booked: the prompt estimate it reserved
 * and every completion token it allowed (max_tokens × paths), priced like a billed call.
 */
function worstCase(call: CallRecord, prices: PriceTable): { prompt_tokens: number; completion_tokens: number; total_tokens: number; cost_usd: number | null } {
  const total = call.reserved_tokens ?? call.booked_tokens ?? 0;
  const completion = Math.min(total, call.max_tokens * call.paths);
  const prompt = total - completion;
  return { prompt_tokens: prompt, completion_tokens: completion, total_tokens: total, cost_usd: callCostUsd({ model: call.model, prompt_tokens: prompt, cached_tokens: 0, completion_tokens: completion }, prices) };
}
