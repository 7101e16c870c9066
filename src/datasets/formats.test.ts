/** Dataset formats (issue 15, item 2): CSV (RFC 4180), gzipped JSONL, `datasets.fields`, ids from a hash of the input. */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, test } from 'vitest';
import { sha256 } from '../core/hash.js';
import { collectErrors, tempTree } from '../test-support/config-helpers.js';
import { parseCsv } from './csv.js';
import { loadDatasetFile, parseDataset } from './load.js';

describe('CSV', () => {
  test('quoted fields with commas, doubled quotes and line breaks; CRLF; BOM; blank lines; each record keeps its first line', () => {
    const text = '\uFEFFid,input,expected\r\n1,"Say ""hi"", then stop",hi\r\n\r\n2,"two\nlines, one field",x\n3,,"4,5"\n';
    expect(parseCsv(text, 'd.csv')).toEqual([
      { line: 2, value: { id: '1', input: 'Say "hi", then stop', expected: 'hi' } },
      { line: 4, value: { id: '2', input: 'two\nlines, one field', expected: 'x' } },
      { line: 6, value: { id: '3', input: '', expected: '4,5' } },
    ]);
  });

  test.each([
    { name: 'a quote never closed', text: 'id,input,expected\n1,"open,x\n2,b,c\n', message: 'quoted field of column `input` is never closed', line: 2, key: 'input' },
    { name: 'text after a closing quote', text: 'id,input,expected\n1,"a"b,c\n', message: 'text after the closing quote of column `input`', line: 2, key: 'input' },
    { name: 'a bare quote inside a field', text: 'id,input,expected\n1,a,say "x"\n', message: 'a quote inside the unquoted field of column `expected`', line: 2, key: 'expected' },
    { name: 'a record with too many fields', text: 'id,input,expected\n1,a,b\n2,a, b,c\n', message: 'record has 4 field(s), the header has 3', line: 3, key: undefined },
    { name: 'a header column named twice', text: 'id,input,id\n1,a,b\n', message: 'header names column `id` twice', line: 1, key: 'id' },
  ])('$name: file, line, key and a fix', async ({ text, message, line, key }) => {
    const dir = tempTree({ 'd.csv': text });
    const [error, ...rest] = await collectErrors(() => loadDatasetFile(join(dir, 'd.csv')));
    expect(rest).toEqual([]);
    expect(error?.message).toBe(message);
    expect(error?.location).toEqual({ file: join(dir, 'd.csv'), line, ...(key === undefined ? {} : { key }) });
    expect(error?.hint).toMatch(/quote|column|name/);
  });
});

describe('a .csv that is not a dataset (issue 11, item 12): its first line is never quoted', () => {
  test.each([
    { name: 'a quote never closed', text: 'Qsk-live-7f3a9,Zhunter2\n"open,x\n', message: 'quoted field of column 1 is never closed', line: 2 },
    { name: 'a bare quote', text: 'Qsk-live-7f3a9,Zhunter2\na,say "x"\n', message: 'a quote inside the unquoted field of column 2', line: 2 },
    { name: 'a header cell twice', text: 'Qsk-live-7f3a9,Qsk-live-7f3a9\na,b\n', message: 'header columns 1 and 2 have the same name', line: 1 },
  ])('$name: the column by number, no key', async ({ text, message, line }) => {
    const dir = tempTree({ 'secrets.csv': text });
    const [error] = await collectErrors(() => loadDatasetFile(join(dir, 'secrets.csv')));
    expect(error?.message).toBe(message);
    expect(error?.location).toEqual({ file: join(dir, 'secrets.csv'), line });
  });

  test('a header that names a datasets.fields column is a dataset header: named as before', async () => {
    const dir = tempTree({ 'gsm.csv': 'question,answer\n"What is 2 + 2?,"#### 4"\n' });
    const [error] = await collectErrors(() => loadDatasetFile(join(dir, 'gsm.csv'), { fields: { input: 'question', expected: 'answer' } }));
    expect(error?.message).toBe('text after the closing quote of column `question`');
  });
});

describe('CSV round trip', () => {
  test('300 records of random fields (quotes, commas, CR, LF, CRLF, unicode, empty) written by the RFC 4180 rules read back exactly', () => {
    let state = 12345;
    const next = (): number => {
      state = (Math.imul(state, 1103515245) + 12345) >>> 0;
      return state / 2 ** 32;
    };
    const alphabet = ['a', 'Z', '0', ' ', ',', '"', '\n', '\r\n', '\r', 'é', '🙂', ';', '\t'];
    const field = (): string => Array.from({ length: Math.floor(next() * 8) }, () => alphabet[Math.floor(next() * alphabet.length)]).join('');
    const quote = (value: string): string => (/[",\r\n]/.test(value) || value === '' ? `"${value.replace(/"/g, '""')}"` : value);
    const records = Array.from({ length: 300 }, (_, i) => ({ id: `r${i}`, input: field(), expected: field() }));
    const text = `id,input,expected\r\n${records.map((r) => [r.id, r.input, r.expected].map(quote).join(',')).join('\r\n')}\r\n`;
    const parsed = parseCsv(text, 'd.csv');
    expect(parsed.map((r) => r.value)).toEqual(records);
    // Each record starts on the line after the previous one's last line break.
    let line = 2;
    parsed.forEach((record, i) => {
      expect(record.line).toBe(line);
      const r = records[i] as { id: string; input: string; expected: string };
      line += 1 + (`${r.input}${r.expected}`.match(/\n/g) ?? []).length;
    });
  });
});

describe('gzip', () => {
  test('.jsonl.gz and .csv.gz are unpacked; the hash is of the bytes on disk', async () => {
    const dir = tempTree({});
    const jsonl = gzipSync('{"id": "a", "input": "x", "expected": 1}\n{"id": "b", "input": "y", "expected": 2}\n');
    writeFileSync(join(dir, 'd.jsonl.gz'), jsonl);
    writeFileSync(join(dir, 'd.csv.gz'), gzipSync('id,input,expected\na,x,1\n'));
    const loaded = await loadDatasetFile(join(dir, 'd.jsonl.gz'));
    expect(loaded.cases.map((c) => [c.id, c.expected, c.source.line])).toEqual([['a', 1, 1], ['b', 2, 2]]);
    expect(loaded.sha256).toBe(sha256(jsonl));
    expect((await loadDatasetFile(join(dir, 'd.csv.gz'))).cases.map((c) => [c.id, c.input, c.expected])).toEqual([['a', 'x', '1']]);
  });

  test('a .gz that is not gzip: one error naming the file and the fix', async () => {
    const dir = tempTree({ 'd.jsonl.gz': '{"id": "a", "input": "x", "expected": 1}\n' });
    const [error] = await collectErrors(() => loadDatasetFile(join(dir, 'd.jsonl.gz')));
    expect(error?.message).toMatch(/^not a valid gzip file/);
    expect(error?.location?.file).toBe(join(dir, 'd.jsonl.gz'));
    expect(error?.hint).toMatch(/gzip -k/);
  });
});

describe('datasets.fields', () => {
  test('dotted paths map id, input, expected, category; mapped keys are not repeated in metadata', () => {
    const text = JSON.stringify({ meta: { uid: 7, topic: 'sums' }, turns: [{ text: 'What is 2 + 2?' }], answer: '2 + 2 = 4\n#### 4', extra: true });
    const { cases, warnings } = parseDataset(text, '/d.jsonl', { fields: { id: 'meta.uid', input: 'turns.0.text', expected: 'answer', category: 'meta.topic' } });
    expect(warnings).toEqual([]);
    expect(cases[0]).toMatchObject({ id: '7', input: 'What is 2 + 2?', expected: '2 + 2 = 4\n#### 4', category: 'sums', metadata: { meta: { uid: 7, topic: 'sums' }, turns: [{ text: 'What is 2 + 2?' }], extra: true } });
    expect(cases[0]?.metadata).not.toHaveProperty('answer');
  });

  test('a row missing a mapped path: file, line, the path as key, and how to fix it', async () => {
    const text = [JSON.stringify({ question: 'a?', answer: '1' }), JSON.stringify({ prompt: 'b?', answer: '2' })].join('\n');
    const [error, ...rest] = await collectErrors(() => parseDataset(text, '/d.jsonl', { fields: { input: 'question', expected: 'answer' } }));
    expect(rest).toEqual([]);
    expect(error?.format()).toBe('/d.jsonl:2: question: missing `question` (the input, named by datasets.fields.input)\n  hint: give every row a `question`, or point datasets.fields.input at the key that holds the input (dotted paths like a.b.0 work)');
  });

  test('type errors name the file\'s own key', async () => {
    const [error] = await collectErrors(() => parseDataset(JSON.stringify({ q: 5, a: '1' }), '/d.jsonl', { fields: { input: 'q', expected: 'a' } }));
    expect(error?.location).toEqual({ file: '/d.jsonl', line: 1, key: 'q' });
    expect(error?.message).toBe('`q` must be a string, got number 5');
  });
});

describe('ids from a hash of the input', () => {
  const rows = ['{"input": "What is 1 + 1?", "expected": 2}', '{"input": "What is 2 + 2?", "expected": 4}', '{"messages": [{"role": "user", "content": "Hi"}], "expected": "Hello"}'];

  test('a file where no row has an id: stable ids (sha256 of the input, 12 hex digits) and ONE warning', () => {
    const first = parseDataset(rows.join('\n'), '/d.jsonl');
    const reordered = parseDataset([...rows].reverse().join('\n'), '/d.jsonl');
    expect(first.cases.map((c) => c.id)).toEqual([sha256('What is 1 + 1?').slice(0, 12), sha256('What is 2 + 2?').slice(0, 12), sha256('[{"content":"Hi","role":"user"}]').slice(0, 12)]);
    expect(new Set(reordered.cases.map((c) => c.id))).toEqual(new Set(first.cases.map((c) => c.id)));
    expect(first.warnings).toHaveLength(1);
    expect(first.warnings[0]).toMatch(/^\/d\.jsonl: no row has an `id`: each case's id is the first 12 hex digits of the sha256 of its input/);
  });

  test('two rows with the same input collide, and the error says why', async () => {
    const [error] = await collectErrors(() => parseDataset([rows[0], rows[0]].join('\n'), '/d.jsonl'));
    expect(error?.message).toMatch(/duplicate id "[0-9a-f]{12}" on lines 1 and 2 \(ids are a hash of the input: the two rows have the same input\)/);
  });

  test('some rows with an id and some without is still an error per row (a mix is a mistake)', async () => {
    const errors = await collectErrors(() => parseDataset(['{"id": "a", "input": "x", "expected": 1}', rows[0]].join('\n'), '/d.jsonl'));
    expect(errors.map((e) => [e.location?.line, e.location?.key])).toEqual([[2, 'id']]);
  });
});
