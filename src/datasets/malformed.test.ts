import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { collectErrors, tempTree } from '../test-support/config-helpers.js';
import { loadDataset } from './load.js';
import { assertNoOverlap } from './splits.js';

const row = (fields: Record<string, unknown>): string => JSON.stringify({ id: 'c1', input: 'What is 2+2?', expected: '4', ...fields });
const rows = (...lines: string[]): string => `${lines.join('\n')}\n`;

interface Case {
  name: string;
  /** Files written to a temp dir; the dataset under test is `data.jsonl`. */
  files: Record<string, string>;
  run: (dir: string) => Promise<unknown>;
  message: string;
  file: string;
  line: number | undefined;
  key: string | undefined;
}

const loadData = (dir: string) => loadDataset(join(dir, 'data.jsonl'), 'val');
const overlap = async (dir: string) => assertNoOverlap({ train: await loadDataset(join(dir, 'train.jsonl'), 'train'), val: await loadDataset(join(dir, 'val.jsonl'), 'val') });

const cases: Case[] = [
  { name: 'bad JSON row', files: { 'data.jsonl': rows(row({}), '{"id": "c2", "input": "x",}') }, run: loadData, message: 'invalid JSON on line 2: ', file: 'data.jsonl', line: 2, key: undefined },
  { name: 'row not an object', files: { 'data.jsonl': rows('["c1", "What is 2+2?"]') }, run: loadData, message: 'row is a list, not a JSON object', file: 'data.jsonl', line: 1, key: undefined },
  { name: 'missing id', files: { 'data.jsonl': rows(row({}), JSON.stringify({ input: 'hi', expected: 'x' })) }, run: loadData, message: 'missing required key `id`', file: 'data.jsonl', line: 2, key: 'id' },
  { name: 'id of the wrong type', files: { 'data.jsonl': rows(row({ id: true })) }, run: loadData, message: '`id` must be a non-empty string or a number, got boolean true', file: 'data.jsonl', line: 1, key: 'id' },
  { name: 'duplicate ids', files: { 'data.jsonl': rows(row({ id: 'a' }), row({ id: 'b' }), '', row({ id: 'a' })) }, run: loadData, message: 'duplicate id "a" on lines 1 and 4', file: 'data.jsonl', line: 4, key: 'id' },
  { name: 'duplicate ids across number and string', files: { 'data.jsonl': rows(row({ id: 7 }), row({ id: '7' })) }, run: loadData, message: 'duplicate id "7" on lines 1 and 2', file: 'data.jsonl', line: 2, key: 'id' },
  { name: 'missing input and messages', files: { 'data.jsonl': rows(JSON.stringify({ id: 'c1', expected: '4' })) }, run: loadData, message: 'missing `input` (or `messages`)', file: 'data.jsonl', line: 1, key: 'input' },
  { name: 'input of the wrong type', files: { 'data.jsonl': rows(row({ input: 42 })) }, run: loadData, message: '`input` must be a string, got number 42', file: 'data.jsonl', line: 1, key: 'input' },
  { name: 'messages with a bad role', files: { 'data.jsonl': rows(JSON.stringify({ id: 'c1', messages: [{ role: 'tool', content: 'x' }, { role: 'user', content: 'hi' }], expected: 'y' })) }, run: loadData, message: '`messages[0].role` must be one of system, user, assistant, got string "tool"', file: 'data.jsonl', line: 1, key: 'messages[0].role' },
  { name: 'messages without content', files: { 'data.jsonl': rows(JSON.stringify({ id: 'c1', messages: [{ role: 'user' }], expected: 'y' })) }, run: loadData, message: '`messages[0].content` must be a string, got nothing', file: 'data.jsonl', line: 1, key: 'messages[0].content' },
  { name: 'both input and messages', files: { 'data.jsonl': rows(row({ messages: [{ role: 'user', content: 'hi' }] })) }, run: loadData, message: 'give either `input` or `messages`, not both', file: 'data.jsonl', line: 1, key: 'messages' },
  { name: 'missing expected and reference', files: { 'data.jsonl': rows(JSON.stringify({ id: 'c1', input: 'hi' })) }, run: loadData, message: 'missing `expected` (or `reference`)', file: 'data.jsonl', line: 1, key: 'expected' },
  { name: 'tags not strings', files: { 'data.jsonl': rows(row({ tags: ['dates', 3] })) }, run: loadData, message: '`tags[1]` must be a string, got number 3', file: 'data.jsonl', line: 1, key: 'tags[1]' },
  { name: 'category of the wrong type', files: { 'data.jsonl': rows(row({ category: ['a'] })) }, run: loadData, message: '`category` must be a string, got a list', file: 'data.jsonl', line: 1, key: 'category' },
  { name: 'empty dataset', files: { 'data.jsonl': '\n  \n' }, run: loadData, message: 'dataset has no rows', file: 'data.jsonl', line: 1, key: 'datasets.val' },
  { name: 'missing dataset file', files: {}, run: (dir) => loadDataset(join(dir, 'data.jsonl'), { configKey: 'datasets.test' }), message: '(set by `datasets.test`)', file: 'data.jsonl', line: undefined, key: 'datasets.test' },
  {
    name: 'overlapping train/val by id',
    files: { 'train.jsonl': rows(row({ id: 'a', input: 'one' }), row({ id: 'b', input: 'two' })), 'val.jsonl': rows(row({ id: 'x', input: 'three' }), row({ id: 'b', input: 'four' })) },
    run: overlap, message: '1 case(s) leak between splits', file: 'val.jsonl', line: 2, key: 'id',
  },
  {
    name: 'overlapping train/val by normalized input',
    files: { 'train.jsonl': rows(row({ id: 'a', input: '  What is\t2+2? ' })), 'val.jsonl': rows(row({ id: 'z', input: 'what IS 2+2?' })) },
    run: overlap, message: ': same input', file: 'val.jsonl', line: 1, key: 'input',
  },
];

describe('malformed datasets', () => {
  test.each(cases)('$name', async ({ files, run, message, file, line, key }) => {
    const dir = tempTree(files);
    const errors = await collectErrors(() => run(dir));
    const match = errors.find((e) => e.message.includes(message));
    expect(match, `no error containing ${JSON.stringify(message)} in:\n${errors.map((e) => e.format()).join('\n')}`).toBeDefined();
    expect(match?.location?.file).toBe(join(dir, file));
    expect(match?.location?.line).toBe(line);
    expect(match?.location?.key).toBe(key);
    expect(match?.hint?.length ?? 0).toBeGreaterThan(0);
  });

  test('all row errors are collected, capped with "and N more"', async () => {
    // Row-specific errors (a key missing from every row is one error: field-errors.test.ts).
    const bad = Array.from({ length: 25 }, (_, i) => JSON.stringify({ id: `c${i}`, input: i, expected: 'x' }));
    const dir = tempTree({ 'data.jsonl': rows(...bad) });
    const errors = await collectErrors(() => loadData(dir));
    expect(errors).toHaveLength(21);
    expect(errors[0]?.location).toMatchObject({ line: 1, key: 'input' });
    expect(errors[20]?.message).toBe('and 5 more error(s) in this dataset');
  });

  test('the overlap error lists both sides with file:line and suggests --allow-overlap', async () => {
    const dir = tempTree({ 'train.jsonl': rows(row({ id: 'a' })), 'val.jsonl': rows(row({ id: 'a' })) });
    const [error] = await collectErrors(() => overlap(dir));
    expect(error?.message).toBe(`1 case(s) leak between splits:\n  - train "a" (${join(dir, 'train.jsonl')}:1) and val "a" (${join(dir, 'val.jsonl')}:1): same id, same input`);
    expect(error?.hint).toContain('--allow-overlap');
  });
});
