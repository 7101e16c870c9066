/**
 * Per-key token budgets, enforced with reserve-then-settle (the runner's BudgetTracker):
 * a call reserves its worst case — prompt estimate + output cap × choices — before it goes
 * upstream, and settles with billed usage when it returns. JavaScript runs the check and
 * the reservation in one synchronous step, so concurrent calls on one key cannot together
 * reserve more than B, and billed spend stays within B whenever the prompt estimate holds.
 *
 * A call that finds the budget held by in-flight reservations (not spent) waits for them to
 * settle — they usually bill far less than they reserved — instead of being denied; only a
 * budget that settled spend has used up is "spent".
 *
 * A bill above its reservation means the estimate failed for this upstream: the key is
 * closed at once (no new call is admitted; `over_reservation` is kept on the key and the call).
 */
import { BudgetTracker } from '../../budget/budget-tracker.js';
import { clampRequest } from '../clamp-request.js';
import type { KeyStore } from '../keys/key-store.js';
import type { VirtualKey } from '../keys/virtual-key.js';
import type { Admission, AdmitRequest, Budgets, OverReservation } from './budgets.js';

export type { Admission, AdmitRequest, Budgets, OverReservation } from './budgets.js';

export const OVER_RESERVATION = 'over_reservation';

export class KeyBudgets implements Budgets {
  private readonly trackers = new Map<string, BudgetTracker>();
  private readonly waiters = new Map<string, Set<() => void>>();
  /** Keys closed by this gateway, whatever cached key object a request carries. */
  private readonly closed = new Map<string, string>();

  constructor(private readonly store: KeyStore, private readonly maxWaitMs = 600_000) {}

  /** Admits at once when it can; a promise only when the call has to wait for reservations to settle. */
  admit(request: AdmitRequest): Admission | Promise<Admission> {
    return this.tryAdmit(request) ?? this.admitAfterWaiting(request);
  }

  /** Why the key takes no new calls, or undefined. */
  closedReason(key: VirtualKey): string | undefined {
    return this.closed.get(key.id) ?? key.closed;
  }

  /** The decision now, or undefined when in-flight reservations hold what the call needs. */
  private tryAdmit(request: AdmitRequest): Admission | undefined {
    const { key, protocol, body, promptTokens, fields } = request;
    if (key.budget === undefined || fields === undefined) return { ok: true, clamp: undefined, reservation: 0, promptTokens: 0 };
    const closed = this.closedReason(key);
    if (closed !== undefined) return { ok: false, reason: 'closed', detail: closedDetail(key, closed) };
    const tracker = this.tracker(key, key.budget);
    const { choices } = fields;
    const allowed = tracker.remaining() - promptTokens;
    if (allowed >= choices) {
      const clamp = clampRequest(protocol, body, fields, allowed);
      const reservation = promptTokens + clamp.maxTokens * clamp.choices;
      tracker.reserve(reservation);
      return { ok: true, clamp, reservation, promptTokens };
    }
    if (tracker.budget - tracker.spent() - promptTokens < choices) return { ok: false, reason: 'spent', detail: `budget ${tracker.budget} tokens, ${tracker.spent()} spent, this prompt ≈${promptTokens}${choices > 1 ? ` and ${choices} choices` : ''}` };
    return undefined;
  }

  private async admitAfterWaiting(request: AdmitRequest): Promise<Admission> {
    const { key } = request;
    const tracker = this.tracker(key, key.budget ?? 0);
    const deadline = Date.now() + this.maxWaitMs;
    for (;;) {
      const gone = request.signal();
      const detail = `budget ${tracker.budget} tokens, ${tracker.spent()} spent, this prompt ≈${request.promptTokens}`;
      if (gone.aborted) return { ok: false, reason: 'spent', detail: `${detail}; the client went away while waiting` };
      if (Date.now() >= deadline) return { ok: false, reason: 'spent', detail: `${detail}; in-flight calls held the rest for ${this.maxWaitMs} ms` };
      await this.nextChange(key.id, deadline - Date.now(), gone);
      const decided = this.tryAdmit(request);
      if (decided) return decided;
    }
  }

  /**
   * Books a call's billed tokens in memory (the call book writes them); unknown usage books
   * the reservation (it may have cost that much). A bill above the reservation closes the key.
   */
  settle(key: VirtualKey, reservation: number, billed: number | undefined): OverReservation {
    let over: OverReservation;
    if (key.budget !== undefined) {
      this.tracker(key, key.budget).settle(reservation, billed);
      if (billed !== undefined && billed > reservation) {
        over = billed - reservation;
        this.closed.set(key.id, OVER_RESERVATION);
        this.store.closeKey(key.id, OVER_RESERVATION, over);
      }
    }
    this.wake(key.id);
    return over;
  }

  /** A call that billed nothing (refused upstream before generating). */
  release(key: VirtualKey, reservation: number): void {
    if (key.budget !== undefined && reservation > 0) this.tracker(key, key.budget).release(reservation);
    this.wake(key.id);
  }

  /** Tokens a key has neither spent nor reserved, or undefined for a key without budget. */
  remaining(key: VirtualKey): number | undefined {
    return key.budget === undefined ? undefined : this.tracker(key, key.budget).remaining();
  }

  private tracker(key: VirtualKey, budget: number): BudgetTracker {
    let tracker = this.trackers.get(key.id);
    if (!tracker) {
      tracker = new BudgetTracker(budget);
      // Spend from before this gateway started (another session of the same key) still counts.
      if (key.spent > 0) tracker.settle(0, key.spent);
      this.trackers.set(key.id, tracker);
    }
    return tracker;
  }

  private nextChange(keyId: string, timeoutMs: number, signal: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      const set = this.waiters.get(keyId) ?? new Set<() => void>();
      this.waiters.set(keyId, set);
      const done = (): void => {
        clearTimeout(timer);
        signal.removeEventListener('abort', done);
        set.delete(done);
        resolve();
      };
      const timer = setTimeout(done, timeoutMs);
      signal.addEventListener('abort', done, { once: true });
      set.add(done);
    });
  }

  private wake(keyId: string): void {
    const set = this.waiters.get(keyId);
    if (!set || set.size === 0) return;
    // Waiters re-check in the order they arrived; each check is synchronous.
    for (const done of [...set]) done();
  }
}

function closedDetail(key: VirtualKey, reason: string): string {
  return reason === OVER_RESERVATION
    ? `key ${key.id} was closed: a call billed more than it reserved (over_reservation), so the budget can no longer be guaranteed; mint a new key`
    : `key ${key.id} was closed (${reason})`;
}
