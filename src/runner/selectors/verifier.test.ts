import { describe, expect, test } from 'vitest';
import type { EvalCase } from '../../core/case.js';
import { commandScorer } from '../../scorers/command.js';
import { containsScorer } from '../../scorers/contains.js';
import { exactScorer } from '../../scorers/exact.js';
import type { Score, Scorer } from '../../scorers/spec.js';
import { verifierSelector } from './verifier.js';

function makeCase(expected: unknown): EvalCase {
  return { id: 'c1', input: 'q', messages: undefined, expected, reference: undefined, category: undefined, tags: [], cluster: undefined, metadata: {}, source: { file: 't.jsonl', line: 1 } };
}

/** Counts calls, so tests can tell reuse from re-scoring. */
function counting(scorer: Scorer): Scorer & { calls: number } {
  const wrapped = {
    name: scorer.name,
    version: scorer.version,
    calls: 0,
    score: (input: Parameters<Scorer['score']>[0]): Promise<Score> => {
      wrapped.calls += 1;
      return scorer.score(input);
    },
  };
  return wrapped;
}

// Passes outputs that parse as a JSON object — a check that needs no answer key.
const isJsonObject = [process.execPath, '-e', 'try { const v = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8")); process.exit(v && typeof v === "object" ? 0 : 1) } catch { process.exit(1) }', '{{output_file}}'];

describe('verifierSelector', () => {
  test.each([
    { name: 'first passing path', outputs: ['nope', '{"a":1}', '{"b":2}'], index: 1, reason: 'path 1 is the first to pass verifier command (2/3 passed)' },
    { name: 'none passing → path 0', outputs: ['nope', '42', ''], index: 0, reason: 'no path of 3 passed verifier command; path 0 kept' },
    { name: 'only the last passes', outputs: ['a', 'b', '{}'], index: 2, reason: 'path 2 is the first to pass verifier command (1/3 passed)' },
  ])('command verifier: $name', async ({ outputs, index, reason }) => {
    const selector = verifierSelector({ verifier: commandScorer({ argv: isJsonObject, timeoutMs: 10_000 }), isMainScorer: false });
    expect(await selector.select({ outputs, evalCase: makeCase(undefined) })).toEqual({ index, reason });
  });

  test('verifier errors are reported and count as not passed', async () => {
    const selector = verifierSelector({ verifier: commandScorer({ argv: ['isobudget-no-such-verifier'], timeoutMs: 5_000 }), isMainScorer: false });
    const selection = await selector.select({ outputs: ['a', 'b'], evalCase: makeCase(undefined) });
    expect(selection).toEqual({ index: 0, reason: 'no path of 2 passed verifier command; path 0 kept; verifier errored on 2 path(s)' });
  });

  test('a separate verifier ignores the main scorer scores', async () => {
    const verifier = counting(containsScorer({ ignoreCase: true }));
    const selector = verifierSelector({ verifier, isMainScorer: false });
    const main: Score[] = [{ passed: true, value: 1 }, { passed: false, value: 0 }];
    const selection = await selector.select({ outputs: ['x', 'has TODO'], evalCase: makeCase('todo'), scores: main });
    expect(selection.index).toBe(1);
    expect(verifier.calls).toBe(2);
  });

  test('the main scorer as verifier reuses the runner scores', async () => {
    const main = counting(exactScorer());
    const selector = verifierSelector({ verifier: main, isMainScorer: true });
    const scores: Score[] = [{ passed: false, value: 0 }, { passed: true, value: 1 }];
    expect((await selector.select({ outputs: ['a', 'b'], evalCase: makeCase('a'), scores })).index).toBe(1);
    expect(main.calls).toBe(0);
    expect((await selector.select({ outputs: ['b', 'a'], evalCase: makeCase('a') })).index).toBe(1);
    expect(main.calls).toBe(2);
  });

  test('no paths → no selection', async () => {
    const selection = await verifierSelector({ verifier: exactScorer(), isMainScorer: true }).select({ outputs: [], evalCase: makeCase('a') });
    expect(selection.index).toBeUndefined();
  });
});
