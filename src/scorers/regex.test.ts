import { describe, expect, test } from 'vitest';
import type { EvalCase } from '../core/case.js';
import { IsobudgetError } from '../core/errors.js';
import { regexScorer } from './regex.js';

function makeCase(expected: unknown): EvalCase {
  return { id: 'c1', input: 'q', messages: undefined, expected, reference: undefined, category: undefined, tags: [], cluster: undefined, metadata: {}, source: { file: 't.jsonl', line: 1 } };
}

describe('regexScorer', () => {
  test.each([
    { name: 'configured pattern matches', pattern: '\\d{4}-\\d{2}-\\d{2}', flags: '', output: 'Date: 2024-05-01', expected: undefined, passed: true },
    { name: 'configured pattern fails', pattern: '^\\d+$', flags: '', output: 'about 42', expected: undefined, passed: false },
    { name: 'flag i', pattern: '^paris$', flags: 'i', output: 'PARIS', expected: undefined, passed: true },
    { name: 'without flag i', pattern: '^paris$', flags: '', output: 'PARIS', expected: undefined, passed: false },
    { name: 'flag m anchors per line', pattern: '^answer: 7$', flags: 'm', output: 'thinking\nanswer: 7\nbye', expected: undefined, passed: true },
    { name: 'flag s lets . cross lines', pattern: 'start.*end', flags: 's', output: 'start\nmiddle\nend', expected: undefined, passed: true },
    { name: 'without flag s', pattern: 'start.*end', flags: '', output: 'start\nmiddle\nend', expected: undefined, passed: false },
    { name: 'flag u with unicode property', pattern: '^\\p{Script=Han}+$', flags: 'u', output: '北京', expected: undefined, passed: true },
    { name: 'expected as the pattern', pattern: undefined, flags: '', output: 'ID: AB-123', expected: '[A-Z]{2}-\\d{3}', passed: true },
    { name: 'expected pattern fails', pattern: undefined, flags: '', output: 'ID: ab-123', expected: '[A-Z]{2}-\\d{3}', passed: false },
    { name: 'empty output', pattern: '.+', flags: '', output: '', expected: undefined, passed: false },
  ])('$name', async ({ pattern, flags, output, expected, passed }) => {
    const scorer = regexScorer(pattern === undefined ? { flags } : { pattern, flags });
    const score = await scorer.score({ output, evalCase: makeCase(expected) });
    expect(score.passed).toBe(passed);
    expect(score.error).toBeUndefined();
  });

  test('flag g does not make repeated scoring stateful', async () => {
    const scorer = regexScorer({ pattern: 'ok', flags: 'g' });
    for (let i = 0; i < 3; i += 1) {
      expect((await scorer.score({ output: 'ok', evalCase: makeCase(undefined) })).passed).toBe(true);
    }
  });

  test('invalid configured pattern fails at construction', () => {
    expect(() => regexScorer({ pattern: '(' })).toThrow(IsobudgetError);
  });

  test.each([
    { name: 'invalid pattern in expected', expected: '(', error: 'invalid regex' },
    { name: 'no pattern anywhere', expected: 42, error: 'not a string pattern' },
  ])('error: $name', async ({ expected, error }) => {
    const score = await regexScorer().score({ output: 'x', evalCase: makeCase(expected) });
    expect(score.passed).toBe(false);
    expect(score.error).toContain(error);
  });
});
