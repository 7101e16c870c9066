/**
 * Leased budgets across replicas (`gateway --db URL --budget-lease TOKENS`): a replica takes
 * a slice of a key's remaining budget into a lease row (one conditional statement, as a
 * per-call reservation is) and admits calls from it in memory, with no round trip on the
 * call's path. Settlements move billed tokens from the lease to `spent` with the call row
 * (pg-book.ts); a lease idle for `idleMs` gives its unused tokens back.
 *
 * The cost of leasing: a replica that dies holding a lease has all of it booked as spent
 * (its calls in flight may have used any part of it), and a call without an output cap is
 * capped at the lease size rather than at the key's whole remainder.
 */
import type { Database } from '../../../db/index.js';
import type { Admission, AdmitRequest, OverReservation } from '../../budget/key-budgets.js';
import type { BudgetFields } from '../../budget-fields.js';
import { clampRequest } from '../../clamp-request.js';
import type { VirtualKey } from '../../keys/virtual-key.js';
import type { Budgets } from '../gateway-store.js';
import { closedRefusal, closeIfOver, waitedTooLong, whyNot } from './budget-state.js';
import { KeyWaiters } from './key-waiters.js';
import { retryConflicts, type PgWriter } from './pg-writer.js';
import type { Replica } from './replica.js';
import { EXTEND_LEASE, RETURN_LEASE } from './sql.js';

export const LEASE_PREFIX = 'lease-';

interface Lease {
  ticket: string;
  keyId: string;
  /** Tokens of the lease row this replica may still hand out or is holding for calls in flight. */
  held: number;
  /** Σ reservations of this replica's calls in flight from the lease. */
  inFlight: number;
  extending: Promise<void> | undefined;
  idle: NodeJS.Timeout | undefined;
}

export class LeaseBudgets implements Budgets {
  private readonly waiters = new KeyWaiters();
  private readonly closed = new Map<string, string>();
  /** The current lease per key. */
  private current = new Map<string, Lease>();
  /** Every lease with calls, by ticket (a lease of an earlier registration stays until its calls settle). */
  private readonly byTicket = new Map<string, Lease>();

  constructor(
    private readonly db: Database, private readonly replica: Replica, private readonly writer: PgWriter,
    private readonly leaseTokens: number, private readonly maxWaitMs = 600_000, private readonly idleMs = 1_000,
  ) {
    // Reclaimed and re-registered: the old leases were booked as spent; new ones start empty.
    replica.onRenewed = () => {
      for (const lease of this.current.values()) lease.held = 0;
      this.current = new Map();
    };
  }

  admit(request: AdmitRequest): Admission | Promise<Admission> {
    const { key, fields } = request;
    if (key.budget === undefined || fields === undefined) return { ok: true, clamp: undefined, reservation: 0, promptTokens: 0 };
    const closed = this.closed.get(key.id) ?? key.closed;
    if (closed !== undefined) return closedRefusal(key, closed);
    const wanted = this.wanted(request.promptTokens, fields, key.budget);
    return this.take(request, fields, this.lease(key.id), wanted) ?? this.admitSlowly(request, fields, wanted);
  }

  settle(key: VirtualKey, reservation: number, billed: number | undefined, ticket?: string): OverReservation {
    const lease = ticket === undefined ? undefined : this.byTicket.get(ticket);
    if (lease !== undefined) {
      lease.inFlight -= reservation;
      lease.held -= Math.min(billed ?? reservation, reservation);
      this.idleLater(lease);
    }
    const over = closeIfOver(key, reservation, billed, this.closed);
    this.waiters.wake(key.id);
    return over;
  }

  release(key: VirtualKey, reservation: number, ticket?: string): void {
    const lease = ticket === undefined ? undefined : this.byTicket.get(ticket);
    if (lease !== undefined) {
      lease.inFlight -= reservation;
      this.idleLater(lease);
    }
    this.waiters.wake(key.id);
  }

  /** Gives every lease's unused tokens back (the server has closed: nothing is in flight). */
  returnAll(): void {
    for (const lease of this.byTicket.values()) {
      if (lease.idle) clearTimeout(lease.idle);
      this.giveBack(lease);
    }
  }

  /** prompt + cap × choices; a call without a cap gets the lease size as its cap. */
  private wanted(promptTokens: number, fields: BudgetFields, budget: number): number {
    const { choices, requested } = fields;
    const cap = requested ?? Math.floor(this.leaseTokens / choices);
    return promptTokens + Math.min(cap, Math.max(0, Math.floor((budget - promptTokens) / choices))) * choices;
  }

  /** Admits from the lease in memory; `wanted` undefined: whatever it holds (clamped). */
  private take(request: AdmitRequest, fields: BudgetFields, lease: Lease, wanted: number | undefined): Admission | undefined {
    const { promptTokens, protocol, body } = request;
    const local = lease.held - lease.inFlight;
    if (local - promptTokens < fields.choices || (wanted !== undefined && local < wanted)) return undefined;
    const clamp = clampRequest(protocol, body, fields, Math.min(local, wanted ?? local) - promptTokens);
    const reservation = promptTokens + clamp.maxTokens * clamp.choices;
    lease.inFlight += reservation;
    if (lease.idle) clearTimeout(lease.idle);
    lease.idle = undefined;
    this.byTicket.set(lease.ticket, lease);
    return { ok: true, clamp, reservation, promptTokens, ticket: lease.ticket };
  }

  private async admitSlowly(request: AdmitRequest, fields: BudgetFields, wanted: number): Promise<Admission> {
    const { key, promptTokens } = request;
    const deadline = Date.now() + this.maxWaitMs;
    for (let attempt = 0; ; attempt += 1) {
      const lease = this.lease(key.id);
      const local = lease.held - lease.inFlight;
      await this.extend(lease, Math.max(this.leaseTokens, wanted - local), Math.max(1, promptTokens + fields.choices - local));
      const admitted = this.take(request, fields, lease, wanted) ?? this.take(request, fields, lease, undefined);
      if (admitted) return admitted;
      const refusal = await whyNot(this.db, key, promptTokens, fields.choices);
      if (refusal !== undefined) return refusal;
      const gone = request.signal();
      if (gone.aborted) return waitedTooLong(key, promptTokens, 'gone', this.maxWaitMs);
      if (Date.now() >= deadline) return waitedTooLong(key, promptTokens, 'deadline', this.maxWaitMs);
      await this.waiters.next(key.id, deadline, gone, attempt);
    }
  }

  /** One extension at a time per lease; concurrent callers share it and look again. */
  private extend(lease: Lease, want: number, least: number): Promise<void> {
    // Retried on a deadlock: an extension locks the key row, then the lease row; a settlement batch the other way round.
    lease.extending ??= retryConflicts(() => this.db.query<{ granted: string | null }>({ name: 'isobudget_extend_lease', text: EXTEND_LEASE, values: [this.replica.id, lease.keyId, lease.ticket, want, least] }))
      .then((result) => {
        this.writer.note(undefined);
        lease.held += Number(result.rows[0]?.granted ?? 0);
      }, (error: unknown) => {
        this.writer.note(error);
        throw error;
      })
      .finally(() => {
        lease.extending = undefined;
        // Tokens the waiting call could not use (it was refused, or took less) are given back once the key is idle.
        this.idleLater(lease);
      });
    return lease.extending;
  }

  private lease(keyId: string): Lease {
    let lease = this.current.get(keyId);
    if (!lease) {
      lease = { ticket: `${LEASE_PREFIX}${this.replica.id}-${keyId}`, keyId, held: 0, inFlight: 0, extending: undefined, idle: undefined };
      this.current.set(keyId, lease);
    }
    return lease;
  }

  private idleLater(lease: Lease): void {
    if (lease.inFlight > 0 || lease.idle) return;
    lease.idle = setTimeout(() => {
      lease.idle = undefined;
      if (lease.extending !== undefined) this.idleLater(lease);
      else if (lease.inFlight === 0) this.giveBack(lease);
    }, this.idleMs);
    lease.idle.unref();
  }

  private giveBack(lease: Lease): void {
    const unused = lease.held - lease.inFlight;
    if (unused <= 0) return;
    lease.held -= unused;
    this.writer.run(RETURN_LEASE, [lease.ticket, unused]);
    if (lease.inFlight === 0 && this.current.get(lease.keyId) !== lease) this.byTicket.delete(lease.ticket);
  }
}
