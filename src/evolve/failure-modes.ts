/**
 * Failure modes of a train run, pure: each failed case gets a reason (what the ledger says
 * went wrong — the finish reason, a scorer error, tool errors and retries in the agent's
 * trajectory, the judge's weakest dimension, else a wrong answer), and cases are grouped by
 * category × reason, largest group first. The examples shown to the proposer are taken from
 * the modes in turn, so a small mode is not crowded out by a large one.
 */
import type { EvalCase } from '../core/case.js';
import type { PathOutcome, ResultRecord } from '../ledger/records.js';
import type { FailureExample, FailureMode, FailureReason } from './types.js';

/** Characters of a case input / output kept in an example (the rest is cut with a note). */
const INPUT_CHARS = 2000;
const OUTPUT_CHARS = 600;

export function failureReason(path: PathOutcome | undefined): FailureReason {
  if (!path) return 'call_error';
  if (path.finish_reason === 'budget_exhausted') return 'budget_exhausted';
  if (path.finish_reason === 'length') return 'length';
  if (path.finish_reason === 'error') return 'call_error';
  const steps = path.trajectory ?? [];
  if (steps.some((s) => s.retry)) return 'tool_retry';
  if (steps.some((s) => s.error !== undefined)) return 'tool_error';
  if (path.error !== undefined && path.judge === undefined) return 'scorer_error';
  const dimensions = Object.entries(path.judge?.dimensions ?? {}).sort(([a, x], [b, y]) => x - y || a.localeCompare(b));
  const weakest = dimensions[0];
  if (weakest) return `judge:${weakest[0]}`;
  return 'wrong_answer';
}

export interface ModesInput {
  /** The n=1 results of the train run (one variant). */
  results: readonly ResultRecord[];
  cases: readonly EvalCase[];
}

export function failureModes(input: ModesInput): FailureMode[] {
  const perCategory = new Map<string, number>();
  for (const result of input.results) perCategory.set(categoryOf(result), (perCategory.get(categoryOf(result)) ?? 0) + 1);
  const modes = new Map<string, FailureMode>();
  for (const result of [...input.results].sort((a, b) => a.case_id.localeCompare(b.case_id))) {
    if (result.passed) continue;
    const category = categoryOf(result);
    const reason = failureReason(result.paths[0]);
    const key = `${category}\u0000${reason}`;
    const mode = modes.get(key) ?? { category, reason, failures: 0, cases: perCategory.get(category) ?? 0, caseIds: [] };
    mode.failures += 1;
    mode.caseIds.push(result.case_id);
    modes.set(key, mode);
  }
  return [...modes.values()].sort((a, b) => b.failures - a.failures || a.category.localeCompare(b.category) || a.reason.localeCompare(b.reason));
}

/** Up to `limit` examples, one mode at a time in turn (largest first). */
export function failureExamples(modes: readonly FailureMode[], input: ModesInput, limit: number): FailureExample[] {
  const byId = new Map(input.cases.map((c) => [c.id, c]));
  const results = new Map(input.results.map((r) => [r.case_id, r]));
  const queues = modes.map((mode) => [...mode.caseIds]);
  const examples: FailureExample[] = [];
  while (examples.length < limit && queues.some((q) => q.length > 0)) {
    for (const [index, queue] of queues.entries()) {
      const id = queue.shift();
      if (id === undefined || examples.length >= limit) continue;
      const evalCase = byId.get(id);
      const result = results.get(id);
      const mode = modes[index];
      if (!evalCase || !result || !mode) continue;
      const path = result.paths[0];
      examples.push({
        case_id: id,
        source: 'train',
        category: mode.category,
        input: clip(evalCase.input, INPUT_CHARS),
        expected: clip(expectedString(evalCase), INPUT_CHARS),
        output: clip(path?.output ?? '', OUTPUT_CHARS),
        reason: mode.reason,
        finish_reason: path?.finish_reason ?? 'error',
      });
    }
  }
  return examples;
}

export function expectedString(evalCase: Pick<EvalCase, 'expected' | 'reference'>): string {
  const value = evalCase.expected ?? evalCase.reference;
  if (value === undefined || value === null) return '';
  return typeof value === 'string' ? value : JSON.stringify(value);
}

function categoryOf(result: ResultRecord): string {
  return result.category ?? 'uncategorized';
}

function clip(text: string, limit: number): string {
  return text.length <= limit ? text : `${text.slice(0, limit)} … [${text.length - limit} more characters]`;
}
