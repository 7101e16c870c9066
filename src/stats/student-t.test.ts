import { expect, test } from 'vitest';
import { normalQuantile } from './normal.js';
import { studentTCentralProbability, studentTCritical } from './student-t.js';

test('two-sided 95% critical values match the standard table (Abramowitz & Stegun 1964, table 26.10)', () => {
  const table: Array<[number, number]> = [[1, 12.7062], [2, 4.3027], [3, 3.1824], [4, 2.7764], [5, 2.5706], [9, 2.2622], [19, 2.0930], [30, 2.0423], [120, 1.9799]];
  for (const [df, value] of table) expect(studentTCritical(0.95, df)).toBeCloseTo(value, 3);
  expect(studentTCritical(0.99, 10)).toBeCloseTo(3.1693, 3);
});

test('the CDF series is a probability, increasing in t, tending to the normal for large ν', () => {
  expect(studentTCentralProbability(0, 7)).toBe(0);
  expect(studentTCentralProbability(Number.POSITIVE_INFINITY, 7)).toBe(1);
  expect(studentTCentralProbability(2, 7)).toBeLessThan(studentTCentralProbability(2.1, 7));
  expect(studentTCritical(0.95, 4000)).toBeCloseTo(normalQuantile(0.975), 2);
  expect(() => studentTCritical(0.95, 1.5)).toThrow(RangeError);
});
