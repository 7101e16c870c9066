import { expect, test } from 'vitest';
import type { EvalCase } from '../core/case.js';
import { nearDuplicates, templateKey, undeclaredClusterWarning } from './near-duplicates.js';

const make = (id: string, input: string, cluster?: string): EvalCase => ({ id, input, messages: undefined, expected: 'x', reference: undefined, category: undefined, tags: [], cluster, metadata: {}, source: { file: 'val.jsonl', line: 1 } });

test('NFKC, case, zero-width spaces, punctuation and white space do not make two texts', () => {
  expect(templateKey('Ｗｈａｔ is the capital of France?')).toBe(templateKey('what  is the capital\u200b of france'));
  expect(templateKey('ﬁle name')).toBe(templateKey('file name'));
  expect(templateKey('what is 3 + 4')).not.toBe(templateKey('what is 17 × 23'));
});

test('groups near-duplicates, largest first', () => {
  const found = nearDuplicates([make('a', 'Q one'), make('b', 'q ONE!'), make('c', 'other'), make('d', 'Q one.'), make('e', 'two'), make('f', 'TWO')]);
  expect(found.groups).toEqual([['a', 'b', 'd'], ['e', 'f']]);
  expect(found.cases).toBe(5);
});

test('warns when ≥ 5% of the split are near-duplicates and no case declares a cluster', () => {
  const distinct = Array.from({ length: 95 }, (_, i) => make(`c${i}`, `question number ${i}`));
  const copies = Array.from({ length: 5 }, (_, i) => make(`dup${i}`, `Summarize\u200b the report on page ${i % 2}`));
  const warning = undeclaredClusterWarning([...distinct, ...copies], { file: 'data/val.jsonl', split: 'val' });
  expect(warning?.code).toBe('dataset_undeclared_clusters');
  expect(warning?.format()).toContain('data/val.jsonl: cluster: 5 of 100 val cases are near-duplicates of another (2 groups, e.g. `dup0`, `dup2`, `dup4`)');
  expect(warning?.hint).toContain('datasets.fields.cluster');
  // Fewer than 5%, or clusters declared: no warning.
  expect(undeclaredClusterWarning([...distinct, ...copies.slice(0, 2)], { file: 'f', split: 'val' })).toBeUndefined();
  expect(undeclaredClusterWarning([...distinct, ...copies].map((c) => ({ ...c, cluster: 'g' })), { file: 'f', split: 'val' })).toBeUndefined();
});
