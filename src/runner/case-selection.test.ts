import { describe, expect, test } from 'vitest';
import type { EvalCase } from '../core/case.js';
import { selectCases } from './case-selection.js';

function cases(categories: string[]): EvalCase[] {
  return categories.map((category, i) => ({ id: `c${i}`, input: 'q', messages: undefined, expected: 'x', reference: undefined, category, tags: [], cluster: undefined, metadata: {}, source: { file: 't.jsonl', line: i + 1 } }));
}

describe('selectCases', () => {
  const split = cases([...Array(60).fill('a'), ...Array(30).fill('b'), ...Array(10).fill('c')]);

  test('--limit takes the first N in file order', () => {
    expect(selectCases(split, { kind: 'limit', limit: 3 }).map((c) => c.id)).toEqual(['c0', 'c1', 'c2']);
  });

  test('--sample keeps each category\'s share (largest remainder) and the file order, the same for the same seed', () => {
    const sample = selectCases(split, { kind: 'sample', size: 15, seed: 4 });
    const count = (category: string) => sample.filter((c) => c.category === category).length;
    // 15 × 60/100 = 9, 15 × 30/100 = 4.5, 15 × 10/100 = 1.5: the leftover 1 goes to b (ties by name).
    expect([count('a'), count('b'), count('c')]).toEqual([9, 5, 1]);
    expect(sample.map((c) => c.source.line)).toEqual([...sample.map((c) => c.source.line)].sort((x, y) => x - y));
    expect(selectCases(split, { kind: 'sample', size: 15, seed: 4 })).toEqual(sample);
    expect(selectCases(split, { kind: 'sample', size: 15, seed: 5 })).not.toEqual(sample);
  });

  test('--cases keeps file order; an unknown id is a usage error with a did-you-mean', () => {
    expect(selectCases(split, { kind: 'cases', ids: ['c5', 'c2'] }).map((c) => c.id)).toEqual(['c2', 'c5']);
    expect(() => selectCases(split, { kind: 'cases', ids: ['c2', 'c1000x'] })).toThrow(/no case 'c1000x'/);
  });
});
