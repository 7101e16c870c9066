/** A wrong field name is one error with a did-you-mean over the rows' keys (issue 24 item 8). */
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { collectErrors, tempTree } from '../test-support/config-helpers.js';
import { loadDataset } from './load.js';

const gsm8k = (rows: number): string => `${Array.from({ length: rows }, (_, i) => JSON.stringify({ id: `q${i}`, question: `What is ${i} + 1?`, answer: `#### ${i + 1}` })).join('\n')}\n`;

test('datasets.fields.input naming a key no row has: one error, did you mean `question`', async () => {
  const dir = tempTree({ 'val.jsonl': gsm8k(60) });
  const errors = await collectErrors(() => loadDataset(join(dir, 'val.jsonl'), { split: 'val', fields: { input: 'questoin', expected: 'answer' } }));
  expect(errors).toHaveLength(1);
  expect(errors[0]?.format()).toContain(`${join(dir, 'val.jsonl')}:1: questoin: missing \`questoin\` (the input, named by datasets.fields.input) — in all 60 rows; the rows have \`id\`, \`question\`, \`answer\``);
  expect(errors[0]?.hint).toContain('did you mean `question`? Set datasets.fields.input: question');
});

test('rows whose prompt is under another key: one "missing input" naming the keys, not one per row', async () => {
  const dir = tempTree({ 'val.jsonl': gsm8k(30) });
  const errors = await collectErrors(() => loadDataset(join(dir, 'val.jsonl'), 'val'));
  const missing = errors.filter((e) => e.code === 'dataset_missing_input');
  expect(missing).toHaveLength(1);
  expect(missing[0]?.message).toContain('— in all 30 rows; the rows have `id`, `question`, `answer`');
  expect(missing[0]?.hint).toContain('set datasets.fields.input to the key that holds it');
  expect(errors.some((e) => e.code === 'dataset_more_errors')).toBe(false);
});

test('a key only some rows lack keeps its per-row errors', async () => {
  const rows = gsm8k(5).split('\n').filter(Boolean);
  rows[2] = JSON.stringify({ id: 'q2', answer: '#### 3' });
  rows[4] = JSON.stringify({ id: 'q4', answer: '#### 5' });
  const dir = tempTree({ 'val.jsonl': `${rows.join('\n')}\n` });
  const errors = await collectErrors(() => loadDataset(join(dir, 'val.jsonl'), { split: 'val', fields: { input: 'question', expected: 'answer' } }));
  expect(errors.map((e) => e.location?.line)).toEqual([3, 5]);
  expect(errors[0]?.message).not.toContain('in all');
});
