/**
 * The run-level cap (`budget.max_total_tokens`, `budget.max_cost_usd`, `--max-total-tokens`),
 * pure: like a gateway key, a unit reserves its worst case before it starts; the run stops
 * starting units when the next reservation could cross the cap, and a finished unit's
 * reservation is replaced by what its calls billed. A call without usage keeps its unit's
 * whole reservation as spent: unknown is not zero.
 */
import type { CallRecord } from '../ledger/records.js';
import type { UnitWorstCase } from './run-size.js';

export interface RunCapLimits {
  /** Tokens every call of the run may bill, earlier sessions included (tokens). */
  maxTotalTokens: number | undefined;
  /** USD every call of the run may cost, earlier sessions included (USD). */
  maxCostUsd: number | undefined;
}

/** What the run spent before this session (a resume): every call record, interrupted ones too. */
export interface SpentBefore {
  tokens: number;
  usd: number;
}

export interface Reservation {
  tokens: number;
  usd: number;
}

export class RunCap {
  private spentTokens: number;
  private spentUsd: number;
  private reservedTokens = 0;
  private reservedUsd = 0;
  /** Why the run stopped starting units; undefined while it has not. */
  stopReason: string | undefined;

  constructor(
    private readonly limits: RunCapLimits,
    before: SpentBefore,
  ) {
    this.spentTokens = before.tokens;
    this.spentUsd = before.usd;
  }

  get active(): boolean {
    return this.limits.maxTotalTokens !== undefined || this.limits.maxCostUsd !== undefined;
  }

  /** Reserves a unit's worst case, or records why it cannot (and returns undefined). */
  reserve(worst: UnitWorstCase): Reservation | undefined {
    if (this.stopReason !== undefined) return undefined;
    const { maxTotalTokens, maxCostUsd } = this.limits;
    const tokens = worst.tokens;
    if (maxTotalTokens !== undefined && this.spentTokens + this.reservedTokens + tokens > maxTotalTokens) {
      this.stopReason = `run-level cap: max_total_tokens ${maxTotalTokens.toLocaleString('en-US')} — ${this.spentTokens.toLocaleString('en-US')} spent, ${this.reservedTokens.toLocaleString('en-US')} reserved by units in flight, and the next unit may spend ${tokens.toLocaleString('en-US')}`;
      return undefined;
    }
    // A unit whose price is unknown cannot be held to a USD cap: the cap is refused at the start
    // (`capProblems`), so here usd is a number whenever maxCostUsd is set.
    const usd = worst.usd ?? 0;
    if (maxCostUsd !== undefined && this.spentUsd + this.reservedUsd + usd > maxCostUsd) {
      this.stopReason = `run-level cap: max_cost_usd ${maxCostUsd} — $${this.spentUsd.toFixed(4)} spent, $${this.reservedUsd.toFixed(4)} reserved by units in flight, and the next unit may cost $${usd.toFixed(4)}`;
      return undefined;
    }
    this.reservedTokens += tokens;
    this.reservedUsd += usd;
    return { tokens, usd };
  }

  /** Replaces a reservation by what the unit's calls billed (the reservation itself where usage is unknown). */
  settle(reservation: Reservation, calls: readonly CallRecord[]): void {
    this.reservedTokens -= reservation.tokens;
    this.reservedUsd -= reservation.usd;
    const unknown = calls.some((call) => typeof call.total_tokens !== 'number');
    const unpriced = calls.some((call) => typeof call.cost_usd !== 'number');
    this.spentTokens += unknown ? reservation.tokens : calls.reduce((sum, call) => sum + (call.total_tokens ?? 0), 0);
    this.spentUsd += unpriced ? reservation.usd : calls.reduce((sum, call) => sum + (call.cost_usd ?? 0), 0);
  }

  /** Tokens spent so far, earlier sessions included (tokens). */
  get tokens(): number {
    return this.spentTokens;
  }
}

/** Spend of earlier sessions, from their call records (every attempt: all may have been billed). */
export function spentBy(calls: Iterable<CallRecord>): SpentBefore {
  let tokens = 0;
  let usd = 0;
  for (const call of calls) {
    tokens += call.total_tokens ?? call.max_tokens ?? 0;
    usd += call.cost_usd ?? 0;
  }
  return { tokens, usd };
}
