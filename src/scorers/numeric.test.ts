import { describe, expect, test } from 'vitest';
import type { EvalCase } from '../core/case.js';
import { IsobudgetError } from '../core/errors.js';
import { numericScorer } from './numeric.js';

function makeCase(expected: unknown): EvalCase {
  return { id: 'c1', input: 'q', messages: undefined, expected, reference: undefined, category: undefined, tags: [], cluster: undefined, metadata: {}, source: { file: 't.jsonl', line: 1 } };
}

describe('numericScorer', () => {
  test.each([
    { name: 'exact match', output: 'so the result is 42', expected: 42, tolerance: 0, relative: false, passed: true },
    { name: 'expected as string', output: '42', expected: '42', tolerance: 0, relative: false, passed: true },
    { name: 'expected string with commas', output: 'about 1234.5', expected: '1,234.5', tolerance: 0, relative: false, passed: true },
    { name: 'output with commas', output: 'Total: $1,234.50', expected: 1234.5, tolerance: 0, relative: false, passed: true },
    { name: 'last number wins over working', output: '2 + 3 = 5, times 4 is 20', expected: 20, tolerance: 0, relative: false, passed: true },
    { name: 'working number is not the answer', output: '20 is wrong; the answer is 21', expected: 20, tolerance: 0, relative: false, passed: false },
    { name: 'negative', output: 'It is -3.', expected: -3, tolerance: 0, relative: false, passed: true },
    { name: 'scientific', output: 'p = 1e-3', expected: 0.001, tolerance: 0, relative: false, passed: true },
    { name: 'absolute inside', output: '3.14', expected: 3.14159, tolerance: 0.01, relative: false, passed: true },
    { name: 'absolute outside', output: '3.1', expected: 3.14159, tolerance: 0.01, relative: false, passed: false },
    { name: 'absolute at the boundary (float slack)', output: '1.1', expected: 1, tolerance: 0.1, relative: false, passed: true },
    { name: 'relative inside', output: '1050', expected: 1000, tolerance: 0.05, relative: true, passed: true },
    { name: 'relative outside', output: '1060', expected: 1000, tolerance: 0.05, relative: true, passed: false },
    { name: 'relative scales with magnitude', output: '0.00105', expected: 0.001, tolerance: 0.05, relative: true, passed: true },
    { name: 'same delta fails absolutely at small scale', output: '0.002', expected: 0.001, tolerance: 0.0001, relative: false, passed: false },
    { name: 'relative with expected 0 needs exact 0', output: '0.0001', expected: 0, tolerance: 0.5, relative: true, passed: false },
    { name: 'unicode around the number', output: '答案是 ４２? no: 42', expected: 42, tolerance: 0, relative: false, passed: true },
    { name: 'empty output', output: '', expected: 1, tolerance: 0, relative: false, passed: false },
  ])('$name', async ({ output, expected, tolerance, relative, passed }) => {
    const score = await numericScorer({ tolerance, relative }).score({ output, evalCase: makeCase(expected) });
    expect(score.passed).toBe(passed);
    expect(score.error).toBeUndefined();
  });

  test('no number in the output is a fail, not an error', async () => {
    const score = await numericScorer().score({ output: 'I do not know', evalCase: makeCase(3) });
    expect(score).toMatchObject({ passed: false, value: 0, explanation: 'no number found in the output' });
  });

  test.each([{ expected: 'forty-two' }, { expected: { n: 1 } }, { expected: undefined }])('non-numeric expected $expected is a scorer error', async ({ expected }) => {
    const score = await numericScorer().score({ output: '42', evalCase: makeCase(expected) });
    expect(score.error).toContain('is not a number');
  });

  test.each([-1, Number.NaN])('tolerance %s is a config error', (tolerance) => {
    expect(() => numericScorer({ tolerance })).toThrow(IsobudgetError);
  });
});
