/**
 * One agent path's share of B. With n paths each path may spend ⌊B/n⌋, as n parallel chat
 * calls would (`planPathBudget(…, nativeN: false)`); every reservation and settlement is
 * mirrored into the unit's tracker, so the case's total and its overspend stay exact.
 */
import { BudgetTracker } from '../../../budget/budget-tracker.js';

export class PathBudget extends BudgetTracker {
  private readonly unit: BudgetTracker;

  constructor(share: number, unit: BudgetTracker) {
    super(share);
    this.unit = unit;
  }

  override reserve(amount: number): boolean {
    if (amount > this.remaining() || !this.unit.reserve(amount)) return false;
    return super.reserve(amount);
  }

  override settle(reservation: number, billed: number | undefined): void {
    super.settle(reservation, billed);
    this.unit.settle(reservation, billed);
  }

  override release(reservation: number): void {
    super.release(reservation);
    this.unit.release(reservation);
  }
}

/**
 * max_tokens of the next turn: what is left of the path's share after the prompt, capped by
 * per_case_max_tokens. On the first turn this is exactly `planPathBudget`'s per-path cap in
 * parallel mode: ⌊(B − n·prompt)/n⌋ = ⌊B/n⌋ − prompt.
 */
export function turnBudget(remaining: number, prompt: number, perCaseMaxTokens: number): { maxTokens: number; binding: boolean } {
  const room = remaining - prompt;
  return { maxTokens: Math.max(0, Math.min(perCaseMaxTokens, room)), binding: room < perCaseMaxTokens };
}
