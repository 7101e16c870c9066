/** The train/val/test overlap check sees through Unicode forms and invisible code points (issue 24 item 7). */
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { tempTree } from '../test-support/config-helpers.js';
import { loadDataset } from './load.js';
import { checkSplitOverlap } from './splits.js';

const rows = (...cases: Array<{ id: string; input: string }>): string => `${cases.map((c) => JSON.stringify({ ...c, expected: 'x' })).join('\n')}\n`;

async function leaks(train: string, val: string, ids: [string, string] = ['t1', 'v1']) {
  const dir = tempTree({ 'train.jsonl': rows({ id: ids[0], input: train }), 'val.jsonl': rows({ id: ids[1], input: val }) });
  return checkSplitOverlap({ train: await loadDataset(join(dir, 'train.jsonl'), 'train'), val: await loadDataset(join(dir, 'val.jsonl'), 'val') });
}

test.each([
  ['NFC vs NFD', 'Parse the date in café menus: 03/04/05', 'Parse the date in cafe\u0301 menus: 03/04/05'],
  ['a zero-width space', 'What is 2+2?', 'What is 2\u200b+2?'],
  ['a soft hyphen, a word joiner and a BOM', 'Normalize 2026-01-02', '\ufeffNor\u00admalize 2026\u2060-01-02'],
  ['full-width compatibility forms', 'What is 2+2?', 'Ｗｈａｔ ｉｓ ２＋２？'],
])('the same input with %s is a leak', async (_name, train, val) => {
  const found = await leaks(train, val);
  expect(found.map((l) => l.reasons)).toEqual([['input']]);
});

test('an id that differs only by a zero-width space is the same id', async () => {
  const found = await leaks('one', 'two', ['case-7', 'case\u200b-7']);
  expect(found.map((l) => l.reasons)).toEqual([['id']]);
});

test('different inputs stay apart', async () => {
  expect(await leaks('What is 2+2?', 'What is 2+3?')).toEqual([]);
});
