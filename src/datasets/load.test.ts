import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { tempTree } from '../test-support/config-helpers.js';
import type { EvalCase } from '../core/case.js';
import { datasetHash, fileSha256 } from './hash.js';
import { loadDataset, parseDatasetText } from './load.js';
import { assertNoOverlap, checkSplitOverlap } from './splits.js';

describe('loadDataset', () => {
  test('reads input rows, messages rows, optional fields and metadata; skips blank lines, CRLF and BOM', async () => {
    const text = [
      '\uFEFF{"id": 1, "input": "Parse 3/4/2024", "expected": "2024-03-04", "category": "dates", "tags": ["us"], "cluster": "doc-1", "difficulty": 2}',
      '',
      '{"id": "c2", "messages": [{"role": "system", "content": "Be terse."}, {"role": "user", "content": "Hi"}, {"role": "assistant", "content": "Hello"}, {"role": "user", "content": "Bye"}], "reference": "A polite goodbye.", "metadata": {"source": "prod"}}',
    ].join('\r\n');
    const dir = tempTree({ 'val.jsonl': text });
    const [first, second] = await loadDataset(join(dir, 'val.jsonl'), 'val');
    expect(first).toEqual({
      id: '1', input: 'Parse 3/4/2024', messages: undefined, expected: '2024-03-04', reference: undefined,
      category: 'dates', tags: ['us'], cluster: 'doc-1', metadata: { difficulty: 2 }, source: { file: join(dir, 'val.jsonl'), line: 1 },
    } satisfies EvalCase);
    expect(second).toMatchObject({ id: 'c2', input: 'Bye', expected: 'A polite goodbye.', reference: 'A polite goodbye.', tags: [], metadata: { source: 'prod' }, source: { line: 3 } });
    expect(second?.messages).toHaveLength(4);
  });

  test('expected may be any JSON; judge-graded datasets need neither expected nor reference', () => {
    const [withObject] = parseDatasetText('{"id": "a", "input": "x", "expected": {"date": "2024-01-01", "ok": true}}', '/d.jsonl');
    expect(withObject?.expected).toEqual({ date: '2024-01-01', ok: true });
    expect(parseDatasetText('{"id": "a", "input": "x"}', '/d.jsonl', { judged: true })).toHaveLength(1);
  });
});

describe('split overlap', () => {
  const make = (id: string, input: string, line = 1, messages?: EvalCase['messages']): EvalCase => ({
    id, input, messages, expected: 'x', reference: undefined, category: undefined, tags: [], cluster: undefined, metadata: {}, source: { file: '/d.jsonl', line },
  });

  test('disjoint splits have no leaks', () => {
    const leaks = checkSplitOverlap({ train: [make('a', 'one')], val: [make('b', 'two')], test: [make('c', 'three')] });
    expect(leaks).toEqual([]);
    expect(() => assertNoOverlap({ train: [make('a', 'one')], val: [make('b', 'two')] })).not.toThrow();
  });

  test('finds leaks between every pair of splits, and a messages row by its concatenated contents', () => {
    const leaks = checkSplitOverlap({
      train: [make('a', 'one')],
      val: [make('v', 'Be terse.\nOne', 2, [{ role: 'system', content: 'Be terse.' }, { role: 'user', content: 'One' }])],
      test: [make('a', 'other'), make('t', 'BE  TERSE. one', 5)],
    });
    expect(leaks.map((l) => [l.first.split, l.first.id, l.second.split, l.second.id, l.reasons])).toEqual([
      ['train', 'a', 'test', 'a', ['id']],
      ['val', 'v', 'test', 't', ['input']],
    ]);
  });

  test('a long leak list is capped', () => {
    const train = Array.from({ length: 15 }, (_, i) => make(`c${i}`, `q${i}`));
    expect(() => assertNoOverlap({ train, test: train })).toThrow(/… and 5 more/);
  });
});

describe('hashes', () => {
  test('fileSha256 is the sha256 of the bytes on disk', async () => {
    const dir = tempTree({ 'd.jsonl': '{"id": 1, "input": "x", "expected": 1}\n' });
    const bytes = readFileSync(join(dir, 'd.jsonl'));
    expect(await fileSha256(join(dir, 'd.jsonl'))).toBe(createHash('sha256').update(bytes).digest('hex'));
  });

  test('datasetHash depends on content, not on formatting or file location', () => {
    const a = parseDatasetText('{"id": 1, "input": "x", "expected": 1}', '/a.jsonl');
    const b = parseDatasetText('\n{ "expected": 1,   "input": "x", "id": "1" }', '/elsewhere/b.jsonl');
    const c = parseDatasetText('{"id": 1, "input": "y", "expected": 1}', '/a.jsonl');
    expect(datasetHash(a)).toBe(datasetHash(b));
    expect(datasetHash(a)).not.toBe(datasetHash(c));
  });
});
