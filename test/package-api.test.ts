/** The package root exports what the issue names, and they compute (closed forms). */
import { expect, test } from 'vitest';
import { mcnemarExactP, passAtK, wilsonInterval } from '../src/index.js';

test('passAtK, wilsonInterval and mcnemarExactP from the package root', () => {
  expect(passAtK(10, 3, 1)).toBeCloseTo(0.3, 15);
  expect(passAtK(10, 0, 5)).toBe(0);
  expect(passAtK(5, 4, 2)).toBe(1); // n − c < k
  const [lo, hi] = wilsonInterval(0, 20);
  expect(lo).toBe(0);
  expect(hi).toBeCloseTo(0.16112515, 7); // z²/(n+z²) with z = 1.959964
  expect(mcnemarExactP(0, 0)).toBe(1);
  expect(mcnemarExactP(0, 5)).toBeCloseTo(0.0625, 15); // 2 · 0.5^5
});
