import { describe, expect, test } from 'vitest';
import { argsHash, canonicalJson } from './args-hash.js';

describe('argsHash', () => {
  test('is 16 hex chars and ignores key order and whitespace at every level', () => {
    const a = argsHash('{"item":"K-1","opts":{"fresh":true,"depth":2}}');
    expect(a).toMatch(/^[0-9a-f]{16}$/);
    expect(argsHash('{ "opts": { "depth": 2, "fresh": true }, "item": "K-1" }')).toBe(a);
  });

  test('different arguments, different hashes; array order matters', () => {
    expect(argsHash('{"item":"K-1"}')).not.toBe(argsHash('{"item":"K-2"}'));
    expect(argsHash('[1,2]')).not.toBe(argsHash('[2,1]'));
  });

  test('no arguments is {}; text that is not JSON is hashed as itself, apart from any JSON value', () => {
    expect(argsHash('')).toBe(argsHash('{}'));
    expect(argsHash('{item: K-1')).toBe(argsHash('{item: K-1'));
    expect(argsHash('"raw:x"')).not.toBe(argsHash('x'));
  });

  test('canonicalJson sorts keys and drops undefined fields', () => {
    expect(canonicalJson({ b: 1, a: [{ d: 1, c: undefined }] })).toBe('{"a":[{"d":1}],"b":1}');
  });
});
