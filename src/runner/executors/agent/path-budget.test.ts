import { describe, expect, test } from 'vitest';
import { BudgetTracker } from '../../../budget/budget-tracker.js';
import { planPathBudget } from '../../../budget/path-budget.js';
import { PathBudget, turnBudget } from './path-budget.js';

describe('PathBudget', () => {
  test('spends within its share and mirrors every reservation into the unit tracker', () => {
    const unit = new BudgetTracker(1000);
    const a = new PathBudget(500, unit);
    const b = new PathBudget(500, unit);
    expect(a.reserve(400)).toBe(true);
    expect(unit.remaining()).toBe(600);
    expect(a.reserve(200), 'past the path share').toBe(false);
    a.settle(400, 150);
    expect([a.spent(), a.remaining(), unit.spent(), unit.remaining()]).toEqual([150, 350, 150, 850]);
    expect(b.reserve(500)).toBe(true);
    b.release(500);
    expect(unit.remaining()).toBe(850);
  });

  test('unknown usage books the reservation in both', () => {
    const unit = new BudgetTracker(1000);
    const path = new PathBudget(500, unit);
    path.reserve(300);
    path.settle(300, undefined);
    expect([path.spent(), unit.spent()]).toEqual([300, 300]);
  });

  test('a path never reserves what the unit no longer has', () => {
    const unit = new BudgetTracker(100);
    unit.reserve(90);
    expect(new PathBudget(50, unit).reserve(20)).toBe(false);
  });
});

describe('turnBudget', () => {
  test.each([
    { B: 4000, n: 1, prompt: 180, cap: 256 },
    { B: 4000, n: 4, prompt: 180, cap: 256 },
    { B: 1500, n: 4, prompt: 120, cap: 256 },
    { B: 1001, n: 3, prompt: 400, cap: 256 },
  ])('turn 1 is planPathBudget in parallel mode (B=$B, n=$n)', ({ B, n, prompt, cap }) => {
    const plan = planPathBudget({ totalTokensPerCase: B, perCaseMaxTokens: cap, n, promptTokens: prompt, nativeN: false });
    expect(turnBudget(Math.floor(B / n), prompt, cap)).toEqual({ maxTokens: plan.maxTokensPerPath, binding: plan.binding });
  });

  test('later turns get what is left after the prompt; nothing left is 0', () => {
    expect(turnBudget(300, 200, 256)).toEqual({ maxTokens: 100, binding: true });
    expect(turnBudget(100, 200, 256)).toEqual({ maxTokens: 0, binding: true });
    expect(turnBudget(3000, 200, 256)).toEqual({ maxTokens: 256, binding: false });
  });
});
