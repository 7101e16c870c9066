import { describe, expect, test } from 'vitest';
import type { EvalCase } from '../core/case.js';
import { normalizedScorer } from './normalized.js';

function makeCase(expected: unknown): EvalCase {
  return { id: 'c1', input: 'q', messages: undefined, expected, reference: undefined, category: undefined, tags: [], cluster: undefined, metadata: {}, source: { file: 't.jsonl', line: 1 } };
}

describe('normalizedScorer', () => {
  test.each([
    { name: 'case and spaces', output: '  NEW   York ', expected: 'new york', passed: true },
    { name: 'quotes and period', output: '"Paris".', expected: 'Paris', passed: true },
    { name: 'backticks', output: '`x = 1`', expected: 'x = 1', passed: true },
    { name: 'number vs string expected', output: '42.', expected: 42, passed: true },
    { name: 'numbers compared as strings', output: '42.0', expected: 42, passed: false },
    { name: 'preamble, answer on the last line', output: 'Let me think step by step.\nThe capital is:\n\nParis\n', expected: 'paris', passed: true },
    { name: 'answer mid-sentence does not pass', output: 'The answer is Paris.', expected: 'Paris', passed: false },
    { name: 'answer on an earlier line does not pass', output: 'Paris\nHope this helps!', expected: 'Paris', passed: false },
    { name: 'unicode full-width digits', output: '\uff14\uff12', expected: '42', passed: true },
    { name: 'unicode CJK with full stop', output: '答案是：\n北京。', expected: '北京', passed: true },
    { name: 'empty output', output: '', expected: 'Paris', passed: false },
    { name: 'wrong answer', output: 'Lyon', expected: 'Paris', passed: false },
  ])('$name', async ({ output, expected, passed }) => {
    const score = await normalizedScorer().score({ output, evalCase: makeCase(expected) });
    expect(score.passed).toBe(passed);
    expect(score.error).toBeUndefined();
  });

  test('says when the last line decided', async () => {
    const score = await normalizedScorer().score({ output: 'Working...\nParis', evalCase: makeCase('Paris') });
    expect(score.explanation).toContain('last non-empty line');
  });

  test('object field', async () => {
    const score = await normalizedScorer({ field: 'city' }).score({ output: 'PARIS', evalCase: makeCase({ city: 'Paris' }) });
    expect(score.passed).toBe(true);
  });

  test('missing expected is a scorer error', async () => {
    const score = await normalizedScorer().score({ output: 'x', evalCase: makeCase(null) });
    expect(score.error).toContain('no expected value');
  });
});
