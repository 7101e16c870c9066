import { describe, expect, test } from 'vitest';
import { extractJson } from './extract-json.js';

describe('extractJson', () => {
  test.each([
    { name: 'whole output', text: ' {"a": 1} ', value: { a: 1 }, source: 'whole' },
    { name: 'array', text: '[1, 2]', value: [1, 2], source: 'whole' },
    { name: 'json fence', text: 'Here you go:\n```json\n{"a": [1, 2]}\n```\nDone.', value: { a: [1, 2] }, source: 'fence' },
    { name: 'bare fence', text: '```\n[true]\n```', value: [true], source: 'fence' },
    { name: 'skips a fence that is not JSON', text: '```python\nx = {1}\n```\n```json\n{"b": 2}\n```', value: { b: 2 }, source: 'fence' },
    { name: 'embedded after prose', text: 'The result is {"name": "Ann", "tags": ["x"]} as requested.', value: { name: 'Ann', tags: ['x'] }, source: 'embedded' },
    { name: 'skips non-JSON brackets', text: '[note] see {"ok": true}', value: { ok: true }, source: 'embedded' },
    { name: 'braces inside strings', text: 'out: {"s": "a } b { c", "n": 1}', value: { s: 'a } b { c', n: 1 }, source: 'embedded' },
    { name: 'escaped quotes inside strings', text: 'x {"s": "say \\"}\\""} y', value: { s: 'say "}"' }, source: 'embedded' },
    { name: 'first of two', text: '{"a":1} and {"b":2}', value: { a: 1 }, source: 'embedded' },
    { name: 'unicode', text: '结果：{"城市": "北京"}', value: { 城市: '北京' }, source: 'embedded' },
  ])('$name', ({ text, value, source }) => {
    expect(extractJson(text)).toEqual({ found: true, value, source });
  });

  test.each([['no json here'], ['"just a string"'], ['42'], ['{broken: json}'], ['{"unterminated": 1'], ['']])('%j → not found', (text) => {
    expect(extractJson(text)).toEqual({ found: false });
  });
});
