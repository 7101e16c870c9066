import { describe, expect, test } from 'vitest';
import type { EvalCase } from '../core/case.js';
import { containsScorer } from './contains.js';

function makeCase(expected: unknown): EvalCase {
  return { id: 'c1', input: 'q', messages: undefined, expected, reference: undefined, category: undefined, tags: [], cluster: undefined, metadata: {}, source: { file: 't.jsonl', line: 1 } };
}

describe('containsScorer', () => {
  test.each([
    { name: 'substring present', output: 'The answer is Paris.', expected: 'Paris', ignoreCase: false, passed: true },
    { name: 'case differs', output: 'the answer is paris', expected: 'Paris', ignoreCase: false, passed: false },
    { name: 'case differs, ignoreCase', output: 'THE ANSWER IS PARIS', expected: 'Paris', ignoreCase: true, passed: true },
    { name: 'expected number', output: 'total: 1234 units', expected: 1234, ignoreCase: false, passed: true },
    { name: 'unicode', output: '首都是北京市', expected: '北京', ignoreCase: true, passed: true },
    { name: 'unicode ignoreCase', output: 'ÉCOLE', expected: 'école', ignoreCase: true, passed: true },
    { name: 'empty output', output: '', expected: 'Paris', ignoreCase: false, passed: false },
    { name: 'absent', output: 'Lyon', expected: 'Paris', ignoreCase: true, passed: false },
  ])('$name', async ({ output, expected, ignoreCase, passed }) => {
    const score = await containsScorer({ ignoreCase }).score({ output, evalCase: makeCase(expected) });
    expect(score.passed).toBe(passed);
    expect(score.error).toBeUndefined();
  });

  test('object field', async () => {
    const score = await containsScorer({ field: 'keyword' }).score({ output: 'uses a mutex', evalCase: makeCase({ keyword: 'mutex' }) });
    expect(score.passed).toBe(true);
  });

  test('empty expected is an error, not a pass for everything', async () => {
    const score = await containsScorer().score({ output: 'anything', evalCase: makeCase('') });
    expect(score).toMatchObject({ passed: false, value: 0 });
    expect(score.error).toContain('expected is empty');
  });
});
