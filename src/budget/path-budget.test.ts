import { describe, expect, test } from 'vitest';
import { planPathBudget, promptEstimate } from './path-budget.js';
import { BudgetTracker } from './budget-tracker.js';
import { PROMPT_OVERHEAD, SEED_RATIO } from '../estimate/billing-ratios.js';

describe('planPathBudget', () => {
  test.each([
    // B, cap, n, prompt, native → maxTokensPerPath, overhead, binding
    { B: 200_000, cap: 4096, n: 1, prompt: 800, native: true, max: 4096, overhead: 800, binding: false },
    { B: 200_000, cap: 4096, n: 8, prompt: 800, native: true, max: 4096, overhead: 800, binding: false },
    { B: 4000, cap: 256, n: 8, prompt: 300, native: true, max: 256, overhead: 300, binding: false },
    { B: 4000, cap: 1024, n: 8, prompt: 300, native: true, max: 462, overhead: 300, binding: true },
    { B: 4000, cap: 1024, n: 8, prompt: 300, native: false, max: 200, overhead: 2400, binding: true },
    { B: 2000, cap: 1024, n: 8, prompt: 300, native: false, max: 0, overhead: 2400, binding: true },
  ])('B=$B cap=$cap n=$n prompt=$prompt native=$native → $max', ({ B, cap, n, prompt, native, max, overhead, binding }) => {
    const plan = planPathBudget({ totalTokensPerCase: B, perCaseMaxTokens: cap, n, promptTokens: prompt, nativeN: native });
    expect(plan.maxTokensPerPath).toBe(max);
    expect(plan.promptOverhead).toBe(overhead);
    expect(plan.binding).toBe(binding);
    // The invariant itself: worst-case spend never exceeds B when the arm can run.
    if (max > 0) expect(plan.worstCaseSpend).toBeLessThanOrEqual(B);
  });

  test('worst case never exceeds B over a grid', () => {
    for (const B of [100, 999, 4000, 200_000]) {
      for (const n of [1, 2, 3, 4, 7, 8, 16]) {
        for (const prompt of [0, 1, 37, 500]) {
          for (const native of [true, false]) {
            const plan = planPathBudget({ totalTokensPerCase: B, perCaseMaxTokens: 4096, n, promptTokens: prompt, nativeN: native });
            if (plan.maxTokensPerPath > 0) expect(plan.worstCaseSpend).toBeLessThanOrEqual(B);
          }
        }
      }
    }
  });

  test('prompt estimate is exact on the simulator and padded elsewhere', () => {
    expect(promptEstimate(100, true)).toBe(100);
    // Before anything is learned: the estimator's seed ratio and fixed overhead.
    expect(promptEstimate(100, false)).toBe(Math.ceil(100 * SEED_RATIO) + PROMPT_OVERHEAD);
    expect(promptEstimate(100, false)).toBeGreaterThan(100 * 1.5);
  });
});

describe('BudgetTracker', () => {
  test('reservations cannot together exceed B; unknown usage books the reservation', () => {
    const tracker = new BudgetTracker(1000);
    expect(tracker.reserve(600)).toBe(true);
    expect(tracker.reserve(500)).toBe(false);
    tracker.settle(600, 250);
    expect(tracker.spent()).toBe(250);
    expect(tracker.remaining()).toBe(750);
    expect(tracker.reserve(700)).toBe(true);
    tracker.settle(700, undefined);
    expect(tracker.spent()).toBe(950);
    expect(tracker.overspend).toBe(0);
  });

  test('billing above B is recorded as overspend', () => {
    const tracker = new BudgetTracker(100);
    tracker.reserve(100);
    tracker.settle(100, 130);
    expect(tracker.overspend).toBe(30);
  });
});
