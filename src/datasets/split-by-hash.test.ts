import { describe, expect, test } from 'vitest';
import { hashPoint, INIT_SHARES, splitByHash, splitOfKey } from './split-by-hash.js';

describe('splitByHash', () => {
  const keys = Array.from({ length: 10_000 }, (_, i) => `case-${i}`);

  test('a key\'s split depends on the key alone: reordering or adding rows moves nothing', () => {
    const before = splitByHash(keys, (k) => k);
    const after = splitByHash([...keys.slice(5000), 'new-1', ...keys.slice(0, 5000), 'new-2'].reverse(), (k) => k);
    for (const split of ['train', 'val', 'test'] as const) {
      const moved = new Set(after[split]);
      for (const key of before[split]) expect(moved.has(key)).toBe(true);
    }
  });

  test('shares: each split within 4 binomial standard deviations of n·p (10 000 keys)', () => {
    const splits = splitByHash(keys, (k) => k, INIT_SHARES);
    for (const split of ['train', 'val', 'test'] as const) {
      const p = INIT_SHARES[split];
      const sd = Math.sqrt(keys.length * p * (1 - p));
      expect(Math.abs(splits[split].length - keys.length * p), split).toBeLessThan(4 * sd);
    }
    expect(splits.train.length + splits.val.length + splits.test.length).toBe(keys.length);
  });

  test('the point is the first 48 bits of sha256, in [0, 1)', () => {
    // sha256("abc") = ba7816bf8f01…
    expect(hashPoint('abc')).toBe(0xba7816bf8f01 / 2 ** 48);
    expect(splitOfKey('abc', { train: 0.5, val: 0.25, test: 0.25 })).toBe('val');
  });
});
