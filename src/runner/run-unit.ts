/** Runs one unit: executor → scorer per path → selector → result record. */
import { LEDGER_SCHEMA_VERSION, type PathOutcome, type ResultRecord } from '../ledger/records.js';
import type { Scorer, Score } from '../scorers/index.js';
import type { Selector } from './selectors/index.js';
import { BudgetTracker } from './budget-tracker.js';
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

export async function runUnit(run: RunContext, unit: Unit, services: UnitServices): Promise<UnitOutcome> {
  const started = performance.now();
  const context: UnitContext = { run, unit, budget: new BudgetTracker(run.config.budget.totalTokensPerCase), calls: [] };
  const paths = await services.executor.run(context);
  const scores = await Promise.all(paths.map((path) => scorePath(services.scorer, path, unit, run.signal)));
  const outputs = paths.map((p) => p.text);
  const selection = unit.arm.n === 1 ? { index: 0 as number | undefined } : await services.selector.select({ outputs, evalCase: unit.evalCase, scores });
  const latencyMs = Math.round(performance.now() - started);
  return { context, result: buildResult(context, paths, scores, selection.index, latencyMs) };
}

async function scorePath(scorer: Scorer, path: PathRun, unit: Unit, signal: AbortSignal): Promise<Score> {
  // A path that ran out of budget or failed is a failure of that path whatever its text says.
  if (path.finishReason === 'budget_exhausted' || path.finishReason === 'error') {
    return { passed: false, value: 0, explanation: path.finishReason };
  }
  try {
    return await scorer.score({ output: path.text, evalCase: unit.evalCase, signal });
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
    error: path.error ?? scores[i]?.error,
  }));
  const answered = calls.filter((c) => c.error === undefined);
  const missing = answered.filter((c) => c.usage_missing).length;
  // Unknown is not zero: one unanswered usage makes the unit's total unknown.
  const sum = (field: 'prompt_tokens' | 'completion_tokens' | 'total_tokens'): number | undefined =>
    missing > 0 ? undefined : answered.reduce((acc, c) => acc + (c[field] ?? 0), 0);
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
    judge_score: undefined,
    paths: outcomes,
    prompt_tokens: sum('prompt_tokens'),
    completion_tokens: sum('completion_tokens'),
    total_tokens: sum('total_tokens'),
    calls_missing_usage: missing,
    calls: calls.length,
    retries: calls.filter((c) => c.retried).length,
    budget: run.config.budget.totalTokensPerCase,
    budget_exhausted: outcomes.some((o) => o.finish_reason === 'budget_exhausted'),
    over_budget: context.budget.overspend > 0,
    latency_ms: latencyMs,
    ts: new Date().toISOString(),
  };
}
