import { describe, expect, test } from 'vitest';
import type { EvalCase } from '../../core/case.js';
import { majoritySelector } from './majority.js';

const evalCase: EvalCase = { id: 'c1', input: 'q', messages: undefined, expected: 'unused', reference: undefined, category: undefined, tags: [], cluster: undefined, metadata: {}, source: { file: 't.jsonl', line: 1 } };

describe('majoritySelector', () => {
  test.each([
    { name: 'clear majority', outputs: ['Lyon', 'Paris', 'Nice', 'Paris'], index: 1 },
    { name: 'votes are normalized', outputs: ['Lyon', '"paris".', 'Lyon ', ' PARIS', '`Paris`'], index: 1 },
    { name: 'unicode normalization (full-width)', outputs: ['41', '\uff14\uff12', '42'], index: 1 },
    { name: 'two-way tie → lower first member', outputs: ['b', 'a', 'a', 'b'], index: 0 },
    { name: 'tie decided by the first member, not the last', outputs: ['x', 'y', 'z', 'z', 'y'], index: 1 },
    { name: 'all distinct → path 0', outputs: ['a', 'b', 'c'], index: 0 },
    { name: 'empty outputs do not vote', outputs: ['', '  ', 'a', '\n', ''], index: 2 },
    { name: 'empties would have won if they voted', outputs: ['', '', '', 'a', 'b', 'b'], index: 4 },
    { name: 'quotes-only output normalizes to empty', outputs: ['""', 'x'], index: 1 },
    { name: 'single path', outputs: ['only'], index: 0 },
  ])('$name', async ({ outputs, index }) => {
    expect((await majoritySelector().select({ outputs, evalCase })).index).toBe(index);
  });

  test.each([
    { name: 'all empty', outputs: ['', ' ', '\n\t'] },
    { name: 'no paths', outputs: [] },
  ])('$name → no selection', async ({ outputs }) => {
    const selection = await majoritySelector().select({ outputs, evalCase });
    expect(selection.index).toBeUndefined();
    expect(selection.reason).toContain('no non-empty output');
  });

  test('reason reports votes and ties', async () => {
    const selection = await majoritySelector().select({ outputs: ['b', 'a', '', 'a', 'b'], evalCase });
    expect(selection).toEqual({ index: 0, reason: '2/4 votes for "b" (paths 0, 4); tie with 1 other group(s), broken by lowest path index' });
  });
});
