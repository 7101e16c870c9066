/**
 * Per-call mode's automatic leases (issue 23, item 7): each replica cuts small leases from a
 * key's row — min(cap, remaining / (share × live replicas)), sql.ts EXTEND_AUTO_LEASE — into a
 * few lease rows of its own (stripes), and calls' reservations move their tokens from one of
 * them into each call's own reservation row (TAKE_FROM_LEASE). Concurrent calls on one key then
 * use the replica's stripes, not all the key's one row; the key row is locked once per lease.
 *
 * A stripe runs one statement at a time: the calls that arrive while its take (or top-up) is
 * in flight wait in its queue and go together in the next take — one statement and one commit
 * for all of them, each still with its own row — instead of one statement each queuing on the
 * stripe's row lock. A call arriving at an idle stripe goes at once.
 *
 * Nothing changes for the accounting: every call still has its own reservation row (a crash
 * leaves a row naming it), tokens move only between rows inside `reserved`, a lease's unused
 * tokens go back when its key is idle for `idleMs`, when the share no longer covers the calls
 * waiting (they then reserve alone, on the key row), and at shutdown; a dead replica's leases
 * are booked as spent and never re-granted. What a crash costs beyond its calls: at most its leases' share.
 */
import type { Database } from '../../../db/index.js';
import { budgetQuery, type PgWriter } from './pg-writer.js';
import type { Replica } from './replica.js';
import { EXTEND_AUTO_LEASE, RELEASE_CALL, TAKE_FROM_LEASE } from './sql.js';

/** Largest lease a stripe takes at once (tokens): ≈ 100 calls of 100 tokens; for larger calls, 4 of them. */
export const AUTO_LEASE_CAP = 10_000;
/** All replicas' leases on a key together hold at most 1/SHARE of what the key has left. */
export const AUTO_LEASE_SHARE = 4;
/** Lease rows per replica and key: takes of one replica run on these in parallel. */
export const AUTO_LEASE_STRIPES = 4;
/** Most calls one take admits. */
const TAKE_LIMIT = 200;

/** What TAKE_FROM_LEASE needs besides the tokens: the call row's descriptive columns. */
export interface CallColumns {
  model: string;
  endpoint: string;
  protocol: string;
  stream: boolean;
  sessionId: string | null;
}

interface Waiting {
  ticket: string;
  wanted: number;
  call: CallColumns;
  done: (taken: boolean | Error) => void;
}

interface Stripe {
  ticket: string;
  keyId: string;
  queue: Waiting[];
  /** A take or top-up is in flight. */
  busy: boolean;
  /** Tokens its lease row holds, as this replica (its only writer) left it; 0 when unsure. */
  balance: number;
  idle: NodeJS.Timeout | undefined;
}

export class AutoLeases {
  private readonly stripes = new Map<string, Stripe>();
  /** Keys whose share covered no call lately (until when, ms): their calls go to the key row at once. */
  private readonly tight = new Map<string, number>();
  private turn = 0;

  constructor(private readonly db: Database, private readonly replica: Replica, private readonly writer: PgWriter, private readonly idleMs = 1_000) {}

  /**
   * Reserves `wanted` tokens for call `ticket` from one of this replica's leases on the key,
   * topping it up from the key's row when it holds too little. False: the share no longer
   * covers the call (the caller reserves it alone); the stripe's leftover has gone back.
   */
  reserve(keyId: string, ticket: string, wanted: number, call: CallColumns): Promise<boolean> {
    const tightUntil = this.tight.get(keyId);
    if (tightUntil !== undefined) {
      if (Date.now() < tightUntil) return Promise.resolve(false);
      this.tight.delete(keyId);
    }
    const stripe = this.stripe(keyId);
    if (stripe.idle) clearTimeout(stripe.idle);
    stripe.idle = undefined;
    return new Promise<boolean>((resolve, reject) => {
      stripe.queue.push({ ticket, wanted, call, done: (taken) => (taken instanceof Error ? reject(taken) : resolve(taken)) });
      if (!stripe.busy) void this.drain(stripe);
    });
  }

  /** Gives every lease's unused tokens back (the server has closed). */
  returnAll(): void {
    for (const stripe of this.stripes.values()) {
      if (stripe.idle) clearTimeout(stripe.idle);
      this.writer.run(RELEASE_CALL, [stripe.ticket]);
    }
    this.stripes.clear();
  }

  /** Takes for the stripe's waiting calls, a batch at a time, until none waits. */
  private async drain(stripe: Stripe): Promise<void> {
    stripe.busy = true;
    try {
      while (stripe.queue.length > 0) {
        const batch = stripe.queue.splice(0, TAKE_LIMIT);
        let outcome: boolean | Error;
        try {
          outcome = await this.take(stripe, batch);
        } catch (error) {
          // Whether the take committed is unknown: the next one tops up rather than trust the balance.
          stripe.balance = 0;
          outcome = error instanceof Error ? error : new Error(String(error));
        }
        for (const waiting of batch) waiting.done(outcome);
      }
    } finally {
      stripe.busy = false;
      this.idleLater(stripe);
    }
  }

  /** One take for `batch`, after a top-up when the stripe holds too little. False: the share no longer covers them. */
  private async take(stripe: Stripe, batch: Waiting[]): Promise<boolean> {
    const total = batch.reduce((sum, waiting) => sum + waiting.wanted, 0);
    // A top-up may be taken by nothing (the row went meanwhile: an idle return racing this stripe): look again a few times.
    for (let attempt = 0; attempt < 3; attempt += 1) {
      if (stripe.balance < total) {
        const granted = await this.topUp(stripe, total - stripe.balance);
        if (granted === 0) {
          // Spare the next calls a lookup and a refused top-up each: the key row for a while.
          this.tight.set(stripe.keyId, Date.now() + this.idleMs);
          break;
        }
        stripe.balance += granted;
      }
      const calls = batch.map((w) => ({ ticket: w.ticket, tokens: w.wanted, model: w.call.model, endpoint: w.call.endpoint, protocol: w.call.protocol, stream: w.call.stream, session_id: w.call.sessionId }));
      const taken = await budgetQuery(this.db, this.writer, 'isobudget_take_from_lease', TAKE_FROM_LEASE, [stripe.ticket, JSON.stringify(calls), this.replica.id]);
      if (taken.rows.length === batch.length) {
        stripe.balance -= total;
        return true;
      }
      stripe.balance = 0;
    }
    stripe.balance = 0;
    this.writer.run(RELEASE_CALL, [stripe.ticket]);
    return false;
  }

  private async topUp(stripe: Stripe, least: number): Promise<number> {
    const result = await budgetQuery(this.db, this.writer, 'isobudget_extend_auto_lease', EXTEND_AUTO_LEASE, [this.replica.id, stripe.keyId, stripe.ticket, AUTO_LEASE_CAP, least, AUTO_LEASE_SHARE * AUTO_LEASE_STRIPES]);
    return Number((result.rows[0] as { granted: string | null } | undefined)?.granted ?? 0);
  }

  /** An idle stripe of the key when there is one, else the next, round robin (its next take carries all that wait there). */
  private stripe(keyId: string): Stripe {
    const start = this.turn;
    this.turn = (this.turn + 1) % AUTO_LEASE_STRIPES;
    const next = this.named(keyId, start);
    for (let i = 0; i < AUTO_LEASE_STRIPES; i += 1) {
      const stripe = i === 0 ? next : this.named(keyId, (start + i) % AUTO_LEASE_STRIPES);
      if (!stripe.busy) return stripe;
    }
    return next;
  }

  /** Stripe `n` of the key, named by the replica's current id (a re-registered replica starts afresh). */
  private named(keyId: string, n: number): Stripe {
    const ticket = `lease-${this.replica.id}-${keyId}-${n}`;
    let stripe = this.stripes.get(ticket);
    if (stripe === undefined) {
      stripe = { ticket, keyId, queue: [], busy: false, balance: 0, idle: undefined };
      this.stripes.set(ticket, stripe);
    }
    return stripe;
  }

  /** A stripe no call has used for `idleMs` gives its tokens back (calls in flight hold theirs in their own rows). */
  private idleLater(stripe: Stripe): void {
    if (stripe.busy || stripe.queue.length > 0 || stripe.idle) return;
    stripe.idle = setTimeout(() => {
      stripe.idle = undefined;
      if (stripe.busy || stripe.queue.length > 0) return;
      this.stripes.delete(stripe.ticket);
      this.writer.run(RELEASE_CALL, [stripe.ticket]);
    }, this.idleMs);
    stripe.idle.unref();
  }
}
