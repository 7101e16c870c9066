import { mkdtempSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { readJsonl } from './jsonl-reader.js';

test('a torn last line is reported with the byte length of the complete lines (multibyte text)', () => {
  const file = join(mkdtempSync(join(tmpdir(), 'jsonl-')), 'calls.jsonl');
  const lines = ['{"a":"日期 ✓"}\n', '\n', '{"b":2}\n'];
  writeFileSync(file, `${lines.join('')}{"c":`);
  const read = readJsonl<Record<string, unknown>>(file);
  expect(read.records).toEqual([{ a: '日期 ✓' }, { b: 2 }]);
  expect(read.tornTail).toBe(true);
  expect(read.validBytes).toBe(Buffer.byteLength(lines.join('')));
  truncateSync(file, read.validBytes);
  expect(readJsonl(file)).toMatchObject({ tornTail: false, validBytes: read.validBytes });
});

test('a broken line in the middle names file and line', () => {
  const file = join(mkdtempSync(join(tmpdir(), 'jsonl-')), 'results.jsonl');
  writeFileSync(file, '{"a":1}\n{oops\n{"b":2}\n');
  expect(() => readJsonl(file)).toThrow(/invalid JSON/);
  try {
    readJsonl(file);
  } catch (error) {
    expect((error as { location?: { line?: number } }).location?.line).toBe(2);
  }
});
