/** The one usage-sanity rule (issue 20 item 6): bad counts are unknown, totals never below parts, cumulative streams keep the maximum. */
import { describe, expect, test } from 'vitest';
import { hasBadCount, isTokenCount, saneUsage } from './usage-sanity.js';
import { UNKNOWN_USAGE } from './usage.js';

describe('isTokenCount', () => {
  test.each([
    [0, true],
    [1, true],
    [2 ** 40, true],
    [-1, false],
    [0.5, false],
    [Number.NaN, false],
    [Number.POSITIVE_INFINITY, false],
    [1e300, false],
    ['10', false],
    [null, false],
    [undefined, false],
  ])('%o → %s', (value, expected) => {
    expect(isTokenCount(value)).toBe(expected);
  });
});

describe('saneUsage', () => {
  const usage = { inputTokens: 100, outputTokens: 50, totalTokens: 150, cachedTokens: 0, reasoningTokens: undefined };

  test('sane usage is unchanged', () => {
    expect(saneUsage(usage)).toEqual(usage);
  });

  test.each(['inputTokens', 'outputTokens', 'totalTokens', 'cachedTokens', 'reasoningTokens'] as const)('a negative %s makes everything unknown', (field) => {
    expect(saneUsage({ ...usage, [field]: -1 })).toEqual(UNKNOWN_USAGE);
  });

  test('a fractional count makes everything unknown', () => {
    expect(saneUsage({ ...usage, outputTokens: 49.5 })).toEqual(UNKNOWN_USAGE);
  });

  test('book max(total, prompt + completion)', () => {
    expect(saneUsage({ ...usage, totalTokens: 3 }).totalTokens).toBe(150);
    expect(saneUsage({ ...usage, totalTokens: 400 }).totalTokens).toBe(400);
  });

  test('a missing total is the sum; a missing part leaves the reported total', () => {
    expect(saneUsage({ ...usage, totalTokens: undefined }).totalTokens).toBe(150);
    expect(saneUsage({ ...usage, outputTokens: undefined, totalTokens: 170 }).totalTokens).toBe(170);
    expect(saneUsage({ ...usage, outputTokens: undefined, totalTokens: undefined }).totalTokens).toBeUndefined();
  });
});

describe('hasBadCount', () => {
  test('absent and null are not bad; anything else that is not a count is', () => {
    expect(hasBadCount({ a: 1, b: null }, ['a', 'b', 'c'])).toBe(false);
    expect(hasBadCount({ a: '1' }, ['a'])).toBe(true);
    expect(hasBadCount({ a: -1 }, ['a'])).toBe(true);
    expect(hasBadCount(undefined, ['a'])).toBe(false);
  });
});
