import { describe, expect, test } from 'vitest';
import { defaultUnit, parseSince, periodOf } from './periods.js';
import { mannKendall } from './trend-test.js';

describe('Mann–Kendall', () => {
  test('exact null distribution without ties: n strictly increasing values → p = 1/n!', () => {
    const r = mannKendall([0, 1, 2, 3], [1, 2, 3, 4]);
    expect(r?.s).toBe(6);
    expect(r?.exact).toBe(true);
    expect(r?.pIncreasing).toBeCloseTo(1 / 24, 12);
    expect(r?.pDecreasing).toBeCloseTo(1, 12);
    const ten = mannKendall([...Array(10).keys()], [...Array(10).keys()].map((i) => i * i));
    expect(ten?.pIncreasing).toBeCloseTo(1 / 3628800, 15);
  });

  test('exact p matches a hand count: n=4, one swap (S=4) → P(S ≥ 4) = 4/24', () => {
    // Orderings of 4 with at most 1 inversion: 1 + 3 = 4 of 24.
    expect(mannKendall([0, 1, 2, 3], [1, 3, 2, 4])?.pIncreasing).toBeCloseTo(4 / 24, 12);
  });

  test('with ties: normal approximation with the tie-corrected variance', () => {
    const r = mannKendall([0, 1, 2, 3, 4, 5], [1, 1, 2, 2, 3, 3]);
    expect(r?.exact).toBe(false);
    // S = 12; Var = [6·5·17 − 3·(2·1·9)]/18 = (510 − 54)/18 = 25.33; z = 11/5.033.
    expect(r?.s).toBe(12);
    expect(r?.pIncreasing).toBeCloseTo(0.01442, 4);
  });

  test("Sen's slope is the median pairwise slope, robust to one outlier; gaps in t are respected", () => {
    const r = mannKendall([0, 1, 2, 3, 4, 5, 6], [10, 12, 14, 100, 18, 20, 22]);
    expect(r?.slope).toBe(2);
    expect(mannKendall([0, 2, 4, 6], [0, 1, 2, 3])?.slope).toBe(0.5);
    expect(r?.slopeCi[0]).toBeLessThanOrEqual(2);
    expect(r?.slopeCi[1]).toBeGreaterThanOrEqual(2);
  });

  test('a flat noisy series is not significant', () => {
    const r = mannKendall([...Array(12).keys()], [5, 7, 4, 6, 5, 8, 4, 6, 7, 5, 6, 5]);
    expect(r?.pIncreasing).toBeGreaterThan(0.2);
    expect(r?.pDecreasing).toBeGreaterThan(0.2);
  });
});

describe('periods', () => {
  test('months and ISO weeks (UTC)', () => {
    expect(periodOf(Date.parse('2026-03-31T23:59:00Z'), 'month')).toMatchObject({ key: '2026-03', start: '2026-03-01' });
    // 2026-01-01 is a Thursday: ISO week 1 of 2026 starts on Monday 2025-12-29.
    expect(periodOf(Date.parse('2026-01-01T12:00:00Z'), 'week')).toMatchObject({ key: '2026-W01', start: '2025-12-29' });
    expect(periodOf(Date.parse('2024-12-30T00:00:00Z'), 'week').key).toBe('2025-W01');
    const a = periodOf(Date.parse('2026-02-02T00:00:00Z'), 'week');
    const b = periodOf(Date.parse('2026-02-09T00:00:00Z'), 'week');
    expect(b.index - a.index).toBe(1);
  });

  test('--since forms and the default unit', () => {
    const until = Date.parse('2026-12-31T00:00:00Z');
    expect(parseSince('90d', until)).toBe(until - 90 * 86_400_000);
    expect(new Date(parseSince('6m', until) ?? 0).toISOString()).toBe('2026-06-30T00:00:00.000Z');
    expect(parseSince('2026-01-01', until)).toBe(Date.parse('2026-01-01'));
    expect(parseSince('soon', until)).toBeUndefined();
    expect(defaultUnit(until - 90 * 86_400_000, until)).toBe('week');
    expect(defaultUnit(until - 365 * 86_400_000, until)).toBe('month');
  });
});
