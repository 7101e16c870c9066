/**
 * Tracks realized spend of one (case, arm, epoch) against B. Calls reserve their worst case
 * before they go out and settle with billed usage when they return, so concurrent paths of
 * one case can never together exceed B.
 */
import { isTokenCount } from '../core/usage-sanity.js';

export class BudgetTracker {
  readonly budget: number;
  private settled = 0;
  private reserved = 0;
  /** Billed spend beyond B, which only a provider billing more than its cap can cause. */
  overspend = 0;

  constructor(budget: number) {
    this.budget = budget;
  }

  /** Tokens not yet spent or reserved. */
  remaining(): number {
    return Math.max(0, this.budget - this.settled - this.reserved);
  }

  spent(): number {
    return this.settled;
  }

  /** Reserves `amount` tokens; false when that would exceed B. */
  reserve(amount: number): boolean {
    if (amount > this.remaining()) return false;
    this.reserved += amount;
    return true;
  }

  /**
   * Releases a reservation and books what was billed. Unknown usage books the reservation
   * itself: we cannot prove the call cost less, so the rest of the case must not assume it.
   * A "billed" count that is not a token count (negative, fractional) is unknown too: it must
   * never credit the case.
   */
  settle(reservation: number, billed: number | undefined): void {
    this.reserved = Math.max(0, this.reserved - reservation);
    const cost = isTokenCount(billed) ? billed : reservation;
    this.settled += cost;
    if (this.settled > this.budget) this.overspend = this.settled - this.budget;
  }

  /** Releases a reservation of a call that billed nothing (e.g. a 500 before generation). */
  release(reservation: number): void {
    this.reserved = Math.max(0, this.reserved - reservation);
  }
}
