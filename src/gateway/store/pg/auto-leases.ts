/**
 * Per-call mode's automatic leases (issue 23, item 7): each replica cuts small leases from a
 * key's row — min(cap, remaining / (share × live replicas)), sql.ts EXTEND_AUTO_LEASE — into a
 * few lease rows of its own (stripes), and a call's reservation moves its tokens from one of
 * them into the call's own reservation row (TAKE_FROM_LEASE). Concurrent calls on one key then
 * lock the replica's stripes, not all the key's one row; the key row is locked once per lease.
 *
 * Nothing changes for the accounting: every call still has its own reservation row (a crash
 * leaves a row naming it), tokens move only between rows inside `reserved`, a lease's unused
 * tokens go back when its key is idle for `idleMs`, when the share no longer covers a call (the
 * call then reserves alone, on the key row), and at shutdown; a dead replica's leases are booked
 * as spent and never re-granted. What a crash costs beyond its calls: at most its leases' share.
 */
import type { Database } from '../../../db/index.js';
import { budgetQuery, type PgWriter } from './pg-writer.js';
import type { Replica } from './replica.js';
import { EXTEND_AUTO_LEASE, RELEASE_CALL, TAKE_FROM_LEASE } from './sql.js';

/** Largest lease a stripe takes at once (tokens): ≈ 100 calls of 100 tokens; for larger calls, 4 of them. */
export const AUTO_LEASE_CAP = 10_000;
/** All replicas' leases on a key together hold at most 1/SHARE of what the key has left. */
export const AUTO_LEASE_SHARE = 4;
/** Lease rows per replica and key: calls of one replica spread their row locks over these. */
export const AUTO_LEASE_STRIPES = 4;

interface Stripe {
  ticket: string;
  extending: Promise<number> | undefined;
  idle: NodeJS.Timeout | undefined;
  /** Admissions using this stripe right now. */
  active: number;
}

/** What TAKE_FROM_LEASE needs besides the tokens: the call row's descriptive columns. */
export interface CallColumns {
  model: string;
  endpoint: string;
  protocol: string;
  stream: boolean;
  sessionId: string | null;
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
  async reserve(keyId: string, ticket: string, wanted: number, call: CallColumns): Promise<boolean> {
    const tightUntil = this.tight.get(keyId);
    if (tightUntil !== undefined) {
      if (Date.now() < tightUntil) return false;
      this.tight.delete(keyId);
    }
    const stripe = this.stripe(keyId);
    stripe.active += 1;
    if (stripe.idle) clearTimeout(stripe.idle);
    stripe.idle = undefined;
    try {
      // Calls of other requests may take a fresh top-up first: look again a few times, then reserve alone.
      for (let attempt = 0; attempt < 3; attempt += 1) {
        const taken = await this.query('isobudget_take_from_lease', TAKE_FROM_LEASE, [stripe.ticket, ticket, wanted, this.replica.id, call.model, call.endpoint, call.protocol, call.stream, call.sessionId]);
        if (taken.rows.length > 0) return true;
        if ((await this.topUp(stripe, keyId, wanted)) === 0) {
          // Spare the next calls a lookup and a refused top-up each: the key row for a while.
          this.tight.set(keyId, Date.now() + this.idleMs);
          break;
        }
      }
      this.writer.run(RELEASE_CALL, [stripe.ticket]);
      return false;
    } finally {
      stripe.active -= 1;
      this.idleLater(stripe);
    }
  }

  /** Gives every lease's unused tokens back (the server has closed). */
  returnAll(): void {
    for (const stripe of this.stripes.values()) {
      if (stripe.idle) clearTimeout(stripe.idle);
      this.writer.run(RELEASE_CALL, [stripe.ticket]);
    }
    this.stripes.clear();
  }

  /** One top-up at a time per stripe; concurrent callers share it and look again. */
  private topUp(stripe: Stripe, keyId: string, wanted: number): Promise<number> {
    stripe.extending ??= this.query('isobudget_extend_auto_lease', EXTEND_AUTO_LEASE, [this.replica.id, keyId, stripe.ticket, AUTO_LEASE_CAP, wanted, AUTO_LEASE_SHARE * AUTO_LEASE_STRIPES])
      .then((result) => Number((result.rows[0] as { granted: string | null } | undefined)?.granted ?? 0))
      .finally(() => (stripe.extending = undefined));
    return stripe.extending;
  }

  /** The next stripe of the key, round robin; named by the replica's current id (a re-registered replica starts afresh). */
  private stripe(keyId: string): Stripe {
    const ticket = `lease-${this.replica.id}-${keyId}-${(this.turn = (this.turn + 1) % AUTO_LEASE_STRIPES)}`;
    let stripe = this.stripes.get(ticket);
    if (!stripe) {
      stripe = { ticket, extending: undefined, idle: undefined, active: 0 };
      this.stripes.set(ticket, stripe);
    }
    return stripe;
  }

  /** A stripe no call has used for `idleMs` gives its tokens back (calls in flight hold theirs in their own rows). */
  private idleLater(stripe: Stripe): void {
    if (stripe.active > 0 || stripe.idle) return;
    stripe.idle = setTimeout(() => {
      stripe.idle = undefined;
      if (stripe.active > 0 || stripe.extending !== undefined) return this.idleLater(stripe);
      this.stripes.delete(stripe.ticket);
      this.writer.run(RELEASE_CALL, [stripe.ticket]);
    }, this.idleMs);
    stripe.idle.unref();
  }

  private query(name: string, text: string, values: unknown[]): Promise<{ rows: unknown[] }> {
    // Retried on a deadlock: a top-up locks the key row, then the lease row; a settlement batch the other way round.
    return budgetQuery(this.db, this.writer, name, text, values);
  }
}
