import { describe, expect, test } from 'vitest';
import type { EvalCase } from '../core/case.js';
import { exactScorer } from './exact.js';

function makeCase(expected: unknown): EvalCase {
  return { id: 'c1', input: 'q', messages: undefined, expected, reference: undefined, category: undefined, tags: [], cluster: undefined, metadata: {}, source: { file: 't.jsonl', line: 1 } };
}

describe('exactScorer', () => {
  test.each([
    { name: 'equal strings', output: 'Paris', expected: 'Paris', field: undefined, passed: true },
    { name: 'case differs', output: 'paris', expected: 'Paris', field: undefined, passed: false },
    { name: 'trailing newline is a difference', output: 'Paris\n', expected: 'Paris', field: undefined, passed: false },
    { name: 'expected number vs string output', output: '42', expected: 42, field: undefined, passed: true },
    { name: 'expected boolean', output: 'true', expected: true, field: undefined, passed: true },
    { name: 'object field', output: 'Lyon', expected: { answer: 'Lyon', note: 'x' }, field: 'answer', passed: true },
    { name: 'nested field', output: '7', expected: { a: { b: 7 } }, field: 'a.b', passed: true },
    { name: 'unicode', output: '北京', expected: '北京', field: undefined, passed: true },
    { name: 'empty output', output: '', expected: 'x', field: undefined, passed: false },
    { name: 'empty expected and output', output: '', expected: '', field: undefined, passed: true },
  ])('$name', async ({ output, expected, field, passed }) => {
    const score = await exactScorer(field === undefined ? {} : { field }).score({ output, evalCase: makeCase(expected) });
    expect(score.passed).toBe(passed);
    expect(score.value).toBe(passed ? 1 : 0);
    expect(score.error).toBeUndefined();
  });

  test('hints when only whitespace differs', async () => {
    const score = await exactScorer().score({ output: ' Paris\n', evalCase: makeCase('Paris') });
    expect(score.explanation).toContain('surrounding whitespace');
  });

  test.each([
    { name: 'no expected', expected: undefined, field: undefined, error: 'no expected value' },
    { name: 'object without field', expected: { answer: 'x' }, field: undefined, error: "set the scorer's `field`" },
    { name: 'missing field', expected: { answer: 'x' }, field: 'other', error: "no field 'other'" },
    { name: 'field on a string', expected: 'x', field: 'answer', error: 'not an object' },
    { name: 'field holding an array', expected: { answer: [1] }, field: 'answer', error: 'an array' },
  ])('error: $name', async ({ expected, field, error }) => {
    const score = await exactScorer(field === undefined ? {} : { field }).score({ output: 'x', evalCase: makeCase(expected) });
    expect(score).toMatchObject({ passed: false, value: 0 });
    expect(score.error).toContain(error);
  });
});
