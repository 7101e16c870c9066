import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { EvalCase } from '../core/case.js';
import { IsobudgetError } from '../core/errors.js';
import { moduleScorer } from './module.js';

function makeCase(expected: unknown): EvalCase {
  return { id: 'c1', input: 'q', messages: undefined, expected, reference: undefined, category: undefined, tags: [], cluster: undefined, metadata: {}, source: { file: 't.jsonl', line: 1 } };
}

let dir = '';
const modules = {
  boolean: 'export default (output, evalCase) => output.trim() === evalCase.expected;',
  number: 'export default (output) => output.length / 10;',
  score: 'export function grade(output) { return { passed: output.includes("ok"), value: 0.75, explanation: "checked for ok" }; }',
  asyncScore: 'export default async (output) => { await new Promise((r) => setTimeout(r, 5)); return { passed: output === "yes" }; };',
  throwing: 'export default () => { throw new Error("grader exploded"); };',
  rejecting: 'export default async () => { throw new Error("async boom"); };',
  outOfRange: 'export default () => 1.5;',
  badShape: 'export default () => ({ ok: true });',
  notFunction: 'export default 42; export const other = () => true;',
  throwsOnImport: 'throw new Error("top-level failure"); export default () => true;',
  hangs: 'export default () => new Promise(() => {});',
};
const paths: Record<string, string> = {};

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'isobudget-module-test-'));
  for (const [name, source] of Object.entries(modules)) {
    paths[name] = join(dir, `${name}.mjs`);
    await writeFile(paths[name], source, 'utf8');
  }
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

function scorerFor(name: keyof typeof modules, exportName = 'default') {
  const path = paths[name];
  if (path === undefined) throw new Error(`no module ${name}`);
  return moduleScorer({ module: path, export: exportName });
}

describe('moduleScorer', () => {
  test.each([
    { module: 'boolean', exportName: 'default', output: 'Paris\n', expected: 'Paris', score: { passed: true, value: 1 } },
    { module: 'boolean', exportName: 'default', output: 'Lyon', expected: 'Paris', score: { passed: false, value: 0 } },
    { module: 'number', exportName: 'default', output: 'abcdefgh', expected: undefined, score: { passed: true, value: 0.8 } },
    { module: 'number', exportName: 'default', output: 'abc', expected: undefined, score: { passed: false, value: 0.3 } },
    { module: 'number', exportName: 'default', output: 'abcde', expected: undefined, score: { passed: true, value: 0.5 } },
    { module: 'score', exportName: 'grade', output: 'all ok', expected: undefined, score: { passed: true, value: 0.75, explanation: 'checked for ok' } },
    { module: 'asyncScore', exportName: 'default', output: 'yes', expected: undefined, score: { passed: true, value: 1 } },
    { module: 'asyncScore', exportName: 'default', output: 'no', expected: undefined, score: { passed: false, value: 0 } },
  ] as const)('$module#$exportName on $output', async ({ module, exportName, output, expected, score }) => {
    expect(await scorerFor(module, exportName).score({ output, evalCase: makeCase(expected) })).toEqual(score);
  });

  test.each([
    { module: 'throwing', exportName: 'default', error: 'threw: grader exploded' },
    { module: 'rejecting', exportName: 'default', error: 'threw: async boom' },
    { module: 'outOfRange', exportName: 'default', error: 'returned 1.5' },
    { module: 'badShape', exportName: 'default', error: 'expected boolean, number' },
    { module: 'notFunction', exportName: 'default', error: "no function export 'default' (exports: default, other)" },
    { module: 'boolean', exportName: 'missing', error: "no function export 'missing'" },
    { module: 'throwsOnImport', exportName: 'default', error: 'top-level failure' },
  ] as const)('$module#$exportName → Score with error', async ({ module, exportName, error }) => {
    const score = await scorerFor(module, exportName).score({ output: 'x', evalCase: makeCase('x') });
    expect(score).toMatchObject({ passed: false, value: 0 });
    expect(score.error).toContain(error);
  });

  test('an aborted signal stops waiting for a hanging module', async () => {
    const controller = new AbortController();
    const pending = scorerFor('hangs').score({ output: 'x', evalCase: makeCase('x'), signal: controller.signal });
    controller.abort();
    expect((await pending).error).toContain('aborted');
  });

  test('version pins the module content', () => {
    expect(scorerFor('boolean').version).toMatch(/^1\.0\.0\+[0-9a-f]{12}$/);
    expect(scorerFor('boolean').version).not.toBe(scorerFor('number').version);
  });

  test.each([
    { name: 'relative path', module: 'scorer.mjs', code: 'scorer_module_path' },
    { name: 'missing file', module: '/nonexistent/isobudget/scorer.mjs', code: 'scorer_module_not_found' },
  ])('config error: $name', ({ module, code }) => {
    expect(() => moduleScorer({ module })).toThrow(IsobudgetError);
    try {
      moduleScorer({ module });
    } catch (thrown) {
      expect((thrown as IsobudgetError).code).toBe(code);
    }
  });
});
