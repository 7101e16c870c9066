import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { ScorerConfig } from '../config/types.js';
import type { EvalCase } from '../core/case.js';
import { createScorer } from './registry.js';

function makeCase(expected: unknown): EvalCase {
  return { id: 'c1', input: 'q', messages: undefined, expected, reference: undefined, category: undefined, tags: [], cluster: undefined, metadata: {}, source: { file: 't.jsonl', line: 1 } };
}

let dir = '';
let modulePath = '';
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'isobudget-registry-test-'));
  modulePath = join(dir, 'grade.mjs');
  await writeFile(modulePath, 'export const grade = (output, evalCase) => output === String(evalCase.expected);', 'utf8');
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('createScorer', () => {
  test.each<{ config: () => ScorerConfig; output: string; expected: unknown; passed: boolean }>([
    { config: () => ({ type: 'exact', field: 'a' }), output: 'x', expected: { a: 'x' }, passed: true },
    { config: () => ({ type: 'normalized' }), output: 'The answer:\n"X".', expected: 'x', passed: true },
    { config: () => ({ type: 'contains', ignoreCase: true }), output: 'say HELLO', expected: 'hello', passed: true },
    { config: () => ({ type: 'regex', pattern: '^ok$', flags: 'i' }), output: 'OK', expected: undefined, passed: true },
    { config: () => ({ type: 'regex', flags: '' }), output: 'id-7', expected: '\\w+-\\d', passed: true },
    { config: () => ({ type: 'numeric', tolerance: 0.1, relative: true }), output: '105', expected: 100, passed: true },
    { config: () => ({ type: 'json', fields: ['a'] }), output: '{"a": 1, "b": 2}', expected: { a: 1 }, passed: true },
    { config: () => ({ type: 'json', schema: { type: 'array' } }), output: '{"a": 1}', expected: undefined, passed: false },
    { config: () => ({ type: 'module', module: modulePath, export: 'grade' }), output: '7', expected: 7, passed: true },
    { config: () => ({ type: 'command', argv: ['true'], timeoutMs: 5_000 }), output: '', expected: undefined, passed: true },
    { config: () => ({ type: 'command', argv: ['false'], timeoutMs: 5_000 }), output: '', expected: undefined, passed: false },
  ])('$# builds a working scorer', async ({ config, output, expected, passed }) => {
    const resolved = config();
    const scorer = createScorer(resolved);
    expect(scorer.name).toBe(resolved.type);
    expect(scorer.version).toMatch(/^\d+\.\d+\.\d+/);
    const score = await scorer.score({ output, evalCase: makeCase(expected) });
    expect(score.error).toBeUndefined();
    expect(score.passed).toBe(passed);
  });
});
