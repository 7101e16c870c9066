import { getHeapStatistics } from 'node:v8';
import { describe, expect, test } from 'vitest';
import { applyRunHeapPolicy, DEFAULT_HEAP_GROWING_PERCENT } from './heap-policy.js';

describe('applyRunHeapPolicy', () => {
  test('default, override, and 0 for V8’s own policy', () => {
    expect(applyRunHeapPolicy({})).toBe(DEFAULT_HEAP_GROWING_PERCENT);
    expect(applyRunHeapPolicy({ ISOBUDGET_HEAP_GROWING_PERCENT: '50' })).toBe(50);
    expect(applyRunHeapPolicy({ ISOBUDGET_HEAP_GROWING_PERCENT: '0' })).toBe(0);
    expect(applyRunHeapPolicy({ ISOBUDGET_HEAP_GROWING_PERCENT: ' ' })).toBe(DEFAULT_HEAP_GROWING_PERCENT);
    // The process keeps working with the flag set (it only changes when major GCs start).
    expect(getHeapStatistics().used_heap_size).toBeGreaterThan(0);
  });

  test.each(['-5', '1.5', 'lots', '5000'])('%s is refused, naming the variable and the fix', (value) => {
    expect(() => applyRunHeapPolicy({ ISOBUDGET_HEAP_GROWING_PERCENT: value })).toThrow(`ISOBUDGET_HEAP_GROWING_PERCENT must be an integer from 0 to 1000, got '${value}'`);
  });
});
