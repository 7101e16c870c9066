/**
 * One recorded result, scored again: the same outputs, a new scorer, the selection again
 * where the selector needs no model call (oracle, majority, verifier); a judge selector's
 * recorded choice is kept — it read the outputs, not the scores. Tokens, calls, latency and
 * cost are the recorded ones: a rescore spends nothing.
 */
import type { EvalCase } from '../core/case.js';
import type { PathOutcome, ResultRecord } from '../ledger/records.js';
import type { ModelAccess, Score, Scorer } from '../scorers/index.js';
import type { Selector } from '../runner/selectors/index.js';

/** What a rescore hands a scorer or selector that asks for a model: a refusal, so no call can leave. */
export const NO_MODEL_CALLS: ModelAccess = {
  complete() {
    return Promise.reject(new Error('rescore makes no model calls (a judge needs --allow-calls)'));
  },
};

export interface RescoreServices {
  scorer: Scorer;
  /** undefined: keep the recorded selection (a judge selector). */
  selector: Selector | undefined;
  signal: AbortSignal;
  /** `--allow-calls`: the unit's budgeted model access (default: a refusal). */
  models?: ModelAccess;
}

async function scoreOutput(scorer: Scorer, path: PathOutcome, evalCase: EvalCase, signal: AbortSignal, models: ModelAccess): Promise<Score> {
  // A path that ran out of budget or failed stays a failure whatever its text says (as in a run).
  if (path.finish_reason === 'budget_exhausted' || path.finish_reason === 'error') return { passed: false, value: 0, explanation: path.finish_reason };
  try {
    return await scorer.score({ output: path.output, evalCase, signal, models, path: path.path });
  } catch (error) {
    return { passed: false, value: 0, error: error instanceof Error ? error.message : String(error) };
  }
}

export async function rescoreResult(result: ResultRecord, evalCase: EvalCase, runId: string, services: RescoreServices): Promise<ResultRecord> {
  const scores = await Promise.all(result.paths.map((path) => scoreOutput(services.scorer, path, evalCase, services.signal, services.models ?? NO_MODEL_CALLS)));
  const paths: PathOutcome[] = result.paths.map((path, i) => {
    const score = scores[i] ?? { passed: false, value: 0 };
    const { judge: _judge, ...rest } = path;
    // The path's own error (a failed generation) stays; the old scorer's error goes with it.
    const ownError = path.finish_reason === 'error' || path.finish_reason === 'budget_exhausted' ? path.error : undefined;
    const error = ownError ?? score.error;
    return { ...rest, passed: score.passed, score: score.value, ...(error === undefined ? { error: undefined } : { error }), ...(score.judge === undefined ? {} : { judge: score.judge }) };
  });
  let selected = result.selected_path;
  if (result.n === 1) selected = 0;
  else if (services.selector !== undefined) {
    selected = (await services.selector.select({ outputs: paths.map((p) => p.output), evalCase, scores, signal: services.signal, models: services.models ?? NO_MODEL_CALLS })).index;
  }
  const chosen = selected === undefined ? undefined : paths[selected];
  const passes = paths.filter((p) => p.passed).length;
  return {
    ...result,
    run_id: runId,
    paths,
    passed: chosen?.passed ?? false,
    passed_any: passes > 0,
    passes,
    selected_path: selected,
    judge_score: chosen?.judge && chosen.judge.error === undefined ? chosen.judge.score : undefined,
  };
}
