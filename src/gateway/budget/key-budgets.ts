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
 */
import { BudgetTracker } from '../../runner/budget-tracker.js';
import { choicesOf, clampRequest, type ClampResult } from '../clamp-request.js';
import type { KeyStore } from '../keys/key-store.js';
import type { VirtualKey } from '../keys/virtual-key.js';
import type { GenerationProtocol } from '../routes.js';

export type Admission =
  | { ok: true; clamp: ClampResult | undefined; reservation: number }
  | { ok: false; detail: string };

export interface AdmitRequest {
  key: VirtualKey;
  protocol: GenerationProtocol;
  body: Record<string, unknown>;
  /** Prompt estimate with margin (tokens). */
  promptTokens: number;
  /** Aborts when the client goes away; asked for only when the call has to wait (an AbortController per request is not free). */
  signal: () => AbortSignal;
}

export class KeyBudgets {
  private readonly trackers = new Map<string, BudgetTracker>();
  private readonly waiters = new Map<string, Set<() => void>>();

  constructor(private readonly store: KeyStore, private readonly maxWaitMs = 600_000) {}

  /** Admits at once when it can; a promise only when the call has to wait for reservations to settle. */
  admit(request: AdmitRequest): Admission | Promise<Admission> {
    return this.tryAdmit(request) ?? this.admitAfterWaiting(request);
  }

  /** The decision now, or undefined when in-flight reservations hold what the call needs. */
  private tryAdmit(request: AdmitRequest): Admission | undefined {
    const { key, protocol, body, promptTokens } = request;
    if (key.budget === undefined) return { ok: true, clamp: undefined, reservation: 0 };
    const tracker = this.tracker(key, key.budget);
    const choices = choicesOf(protocol, body);
    const allowed = tracker.remaining() - promptTokens;
    if (allowed >= choices) {
      const clamp = clampRequest(protocol, body, allowed);
      const reservation = promptTokens + clamp.maxTokens * clamp.choices;
      tracker.reserve(reservation);
      return { ok: true, clamp, reservation };
    }
    if (tracker.budget - tracker.spent() - promptTokens < choices) return { ok: false, detail: `budget ${tracker.budget} tokens, ${tracker.spent()} spent, this prompt ≈${promptTokens}` };
    return undefined;
  }

  private async admitAfterWaiting(request: AdmitRequest): Promise<Admission> {
    const { key } = request;
    const tracker = this.tracker(key, key.budget ?? 0);
    const deadline = Date.now() + this.maxWaitMs;
    for (;;) {
      const gone = request.signal();
      const detail = `budget ${tracker.budget} tokens, ${tracker.spent()} spent, this prompt ≈${request.promptTokens}`;
      if (gone.aborted) return { ok: false, detail: `${detail}; the client went away while waiting` };
      if (Date.now() >= deadline) return { ok: false, detail: `${detail}; in-flight calls held the rest for ${this.maxWaitMs} ms` };
      await this.nextChange(key.id, deadline - Date.now(), gone);
      const decided = this.tryAdmit(request);
      if (decided) return decided;
    }
  }

  /** Books a call's billed tokens; unknown usage books the reservation (it may have cost that much). */
  settle(key: VirtualKey, reservation: number, billed: number | undefined): void {
    const cost = billed ?? reservation;
    if (key.budget !== undefined) this.tracker(key, key.budget).settle(reservation, billed);
    this.store.addSpent(key.id, cost);
    this.wake(key.id);
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
