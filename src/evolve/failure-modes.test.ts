import { expect, test } from 'vitest';
import type { EvalCase } from '../core/case.js';
import type { PathOutcome, ResultRecord } from '../ledger/records.js';
import { makeResults } from '../test-support/results.js';
import { failureExamples, failureModes, failureReason } from './failure-modes.js';

const path = (over: Partial<PathOutcome>): PathOutcome => ({ path: 0, output: 'out', passed: false, score: 0, finish_reason: 'stop', tokens: 10, error: undefined, ...over });

test('a failure\'s reason is what the ledger says: finish reason, tool errors and retries, scorer error, weakest judge dimension, else a wrong answer', () => {
  expect(failureReason(path({ finish_reason: 'budget_exhausted' }))).toBe('budget_exhausted');
  expect(failureReason(path({ finish_reason: 'length' }))).toBe('length');
  expect(failureReason(path({ finish_reason: 'error' }))).toBe('call_error');
  const step = { turn: 1, tool: 'lookup', args_hash: 'a', result_bytes: 3, duration_ms: 1, error: undefined, retry: false };
  expect(failureReason(path({ trajectory: [{ ...step, error: 'timeout' }] }))).toBe('tool_error');
  expect(failureReason(path({ trajectory: [{ ...step, error: 'timeout' }, { ...step, retry: true }] }))).toBe('tool_retry');
  expect(failureReason(path({ error: 'scorer crashed' }))).toBe('scorer_error');
  expect(failureReason(path({ judge: { score: 0.2, dimensions: { correctness: 0.2, conciseness: 0.1 }, rationale: '', error: undefined, tokens: 5 } }))).toBe('judge:conciseness');
  expect(failureReason(path({}))).toBe('wrong_answer');
});

test('modes by category × reason, largest first; examples taken from each mode in turn', () => {
  const results: ResultRecord[] = makeResults({ cases: 12, category: (i) => (i < 8 ? 'big' : 'small'), arms: [{ arm: 'baseline_single', passed: (i) => i % 4 === 3 }] })
    .map((r, i) => ({ ...r, paths: [path({ finish_reason: i === 9 ? 'length' : 'stop' })] }));
  const cases: EvalCase[] = results.map((r) => ({ id: r.case_id, input: `input of ${r.case_id}`, messages: undefined, expected: 'x', reference: undefined, category: r.category, tags: [], cluster: undefined, metadata: {}, source: { file: 'train.jsonl', line: 1 } }));
  const modes = failureModes({ results, cases });
  expect(modes.map((m) => [m.category, m.reason, m.failures, m.cases])).toEqual([['big', 'wrong_answer', 6, 8], ['small', 'wrong_answer', 2, 4], ['small', 'length', 1, 4]]);
  const examples = failureExamples(modes, { results, cases }, 4);
  expect(examples.map((e) => `${e.category}/${e.reason}`)).toEqual(['big/wrong_answer', 'small/wrong_answer', 'small/length', 'big/wrong_answer']);
  expect(examples[0]).toMatchObject({ source: 'train', input: 'input of case-0000', expected: 'x' });
});
