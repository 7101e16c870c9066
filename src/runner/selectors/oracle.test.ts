import { describe, expect, test } from 'vitest';
import type { EvalCase } from '../../core/case.js';
import { exactScorer } from '../../scorers/exact.js';
import type { Score } from '../../scorers/spec.js';
import { oracleSelector } from './oracle.js';

function makeCase(expected: unknown): EvalCase {
  return { id: 'c1', input: 'q', messages: undefined, expected, reference: undefined, category: undefined, tags: [], cluster: undefined, metadata: {}, source: { file: 't.jsonl', line: 1 } };
}

const pass: Score = { passed: true, value: 1 };
const fail: Score = { passed: false, value: 0 };

describe('oracleSelector', () => {
  test.each([
    { name: 'first passing path', outputs: ['a', 'b', 'c'], scores: [fail, pass, pass], index: 1 },
    { name: 'path 0 passes', outputs: ['a', 'b'], scores: [pass, fail], index: 0 },
    { name: 'none passes → path 0', outputs: ['a', 'b'], scores: [fail, fail], index: 0 },
    { name: 'scorer errors count as not passed', outputs: ['a', 'b'], scores: [{ passed: false, value: 0, error: 'boom' }, pass], index: 1 },
  ])('given scores: $name', async ({ outputs, scores, index }) => {
    const selection = await oracleSelector(exactScorer()).select({ outputs, evalCase: makeCase('unused'), scores });
    expect(selection.index).toBe(index);
  });

  test.each([
    { name: 'computes scores with the main scorer when absent', outputs: ['Lyon', 'Paris', 'Paris'], index: 1 },
    { name: 'no path right', outputs: ['Lyon', 'Nice'], index: 0 },
    { name: 'no paths', outputs: [], index: undefined },
  ])('$name', async ({ outputs, index }) => {
    const selection = await oracleSelector(exactScorer()).select({ outputs, evalCase: makeCase('Paris') });
    expect(selection.index).toBe(index);
  });

  test('reason says it used the answer key', async () => {
    const selection = await oracleSelector(exactScorer()).select({ outputs: ['x', 'Paris'], evalCase: makeCase('Paris') });
    expect(selection.reason).toBe('path 1 is the first passing path (1/2 passed; oracle uses the answer key)');
  });

  test('scores that do not match the outputs are a bug, not data', async () => {
    await expect(oracleSelector(exactScorer()).select({ outputs: ['a', 'b'], evalCase: makeCase('a'), scores: [pass] })).rejects.toThrow('1 scores for 2 outputs');
  });
});
