import { describe, expect, test } from 'vitest';
import type { EvalCase } from '../core/case.js';
import { IsobudgetError } from '../core/errors.js';
import { jsonScorer, type JsonScorerOptions } from './json.js';

function makeCase(expected: unknown): EvalCase {
  return { id: 'c1', input: 'q', messages: undefined, expected, reference: undefined, category: undefined, tags: [], cluster: undefined, metadata: {}, source: { file: 't.jsonl', line: 1 } };
}

const personSchema = {
  type: 'object',
  properties: { name: { type: 'string' }, age: { type: 'integer', minimum: 0 } },
  required: ['name', 'age'],
};

describe('jsonScorer', () => {
  test.each<{ name: string; options: JsonScorerOptions; output: string; expected: unknown; passed: boolean; value: number }>([
    { name: 'whole value equal, key order ignored', options: {}, output: '{"b": 2, "a": 1}', expected: { a: 1, b: 2 }, passed: true, value: 1 },
    { name: 'whole value differs', options: {}, output: '{"a": 1}', expected: { a: 1, b: 2 }, passed: false, value: 0 },
    { name: 'array order matters', options: {}, output: '[2, 1]', expected: [1, 2], passed: false, value: 0 },
    { name: 'types are strict', options: {}, output: '{"a": "1"}', expected: { a: 1 }, passed: false, value: 0 },
    { name: 'expected stored as a JSON string', options: {}, output: '{"a": 1}', expected: '{"a": 1}', passed: true, value: 1 },
    { name: 'JSON inside a fence with preamble', options: {}, output: 'Sure!\n```json\n{"city": "北京"}\n```', expected: { city: '北京' }, passed: true, value: 1 },
    { name: 'fields: all match', options: { fields: ['name', 'address.city'] }, output: '{"name": "Ann", "address": {"city": "Oslo", "zip": "0150"}, "extra": 1}', expected: { name: 'Ann', address: { city: 'Oslo' } }, passed: true, value: 1 },
    { name: 'fields: partial credit', options: { fields: ['name', 'age'] }, output: '{"name": "Ann", "age": 30}', expected: { name: 'Ann', age: 31 }, passed: false, value: 0.5 },
    { name: 'fields: missing in output', options: { fields: ['name', 'age'] }, output: '{"name": "Ann"}', expected: { name: 'Ann', age: 31 }, passed: false, value: 0.5 },
    { name: 'fields: array index path', options: { fields: ['items.1'] }, output: '{"items": ["a", "b"]}', expected: { items: ['x', 'b'] }, passed: true, value: 1 },
    { name: 'schema ok, then compared', options: { schema: personSchema }, output: '{"name": "Ann", "age": 3}', expected: { name: 'Ann', age: 3 }, passed: true, value: 1 },
    { name: 'schema violation: wrong type', options: { schema: personSchema }, output: '{"name": "Ann", "age": "3"}', expected: { name: 'Ann', age: '3' }, passed: false, value: 0 },
    { name: 'schema violation: missing required', options: { schema: personSchema }, output: '{"name": "Ann"}', expected: undefined, passed: false, value: 0 },
    { name: 'schema violation: minimum', options: { schema: personSchema }, output: '{"name": "Ann", "age": -1}', expected: undefined, passed: false, value: 0 },
    { name: 'schema only: no expected', options: { schema: personSchema }, output: '{"name": "Ann", "age": 3}', expected: undefined, passed: true, value: 1 },
    { name: 'schema only: fields []', options: { schema: personSchema, fields: [] }, output: '{"name": "Bo", "age": 3}', expected: { name: 'Ann' }, passed: true, value: 1 },
    { name: 'no JSON in output', options: {}, output: 'I cannot answer', expected: { a: 1 }, passed: false, value: 0 },
    { name: 'empty output', options: {}, output: '', expected: { a: 1 }, passed: false, value: 0 },
  ])('$name', async ({ options, output, expected, passed, value }) => {
    const score = await jsonScorer(options).score({ output, evalCase: makeCase(expected) });
    expect(score).toMatchObject({ passed, value });
    expect(score.error).toBeUndefined();
  });

  test('schema violation names the path', async () => {
    const score = await jsonScorer({ schema: personSchema }).score({ output: '{"name": "Ann", "age": "3"}', evalCase: makeCase(undefined) });
    expect(score.explanation).toMatch(/^schema violation: age: /);
  });

  test.each<{ name: string; options: JsonScorerOptions; expected: unknown; error: string }>([
    { name: 'no expected and no schema', options: {}, expected: undefined, error: 'no expected value' },
    { name: 'field missing from expected', options: { fields: ['age'] }, expected: { name: 'Ann' }, error: "no field 'age'" },
  ])('error: $name', async ({ options, expected, error }) => {
    const score = await jsonScorer(options).score({ output: '{"name": "Ann"}', evalCase: makeCase(expected) });
    expect(score.passed).toBe(false);
    expect(score.error).toContain(error);
  });

  test('an unusable schema is a config error at construction', () => {
    expect(() => jsonScorer({ schema: { $ref: 'https://example.com/remote.json' } })).toThrow(IsobudgetError);
  });
});
