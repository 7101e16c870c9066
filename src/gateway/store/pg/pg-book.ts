/**
 * The call book of a Postgres replica. The reservation was made when the call was admitted
 * (a row in `gateway_reservations`), so `reserve` only remembers which row the call holds;
 * `finish` settles it — reservation released, bill booked, call row inserted — in one
 * statement, written off the request's path (pg-writer.ts). A refused call gets its row alone.
 */
import type { CallBook, Settlement } from '../../call-book.js';
import type { Reservation } from '../../durable/spend-journal.js';
import type { GatewayCallRecord } from '../../ledger/gateway-record.js';
import { LEASE_PREFIX } from './lease-budgets.js';
import type { PgWriter, SettlementRow } from './pg-writer.js';
import type { Replica } from './replica.js';

export class PgBook implements CallBook {
  /** Call id → the reservation row it holds (its own, or its replica's lease on the key). */
  private readonly tickets = new Map<string, string>();

  constructor(private readonly writer: PgWriter, private readonly replica: Replica, private readonly cost?: (record: GatewayCallRecord) => number | null) {}

  reserve(reservation: Reservation): boolean {
    if (this.writer.trouble() !== undefined) return false;
    if (reservation.ticket !== undefined) this.tickets.set(reservation.callId, reservation.ticket);
    return true;
  }

  finish(record: GatewayCallRecord, settlement: Settlement | undefined): void {
    if (this.cost) record.cost_usd = this.cost(record);
    const ticket = settlement === undefined ? undefined : this.tickets.get(settlement.callId);
    if (settlement !== undefined) this.tickets.delete(settlement.callId);
    const reserved = record.reserved_tokens ?? 0;
    const booked = settlement?.booked ?? 0;
    const kind: SettlementRow['kind'] = settlement === undefined ? 'none' : ticket?.startsWith(LEASE_PREFIX) ? 'lease' : 'call';
    this.writer.settle({
      ticket: ticket ?? null, kind, key_id: record.key_id, booked, over: settlement?.over ?? 0, lease_part: kind === 'lease' ? Math.min(booked, reserved) : 0,
      call_id: record.call_id ?? `${this.replica.id}-${Date.now().toString(36)}`, replica_id: this.replica.id, ts: record.ts, model: record.model, endpoint: record.endpoint,
      status: record.status ?? null, session_id: record.session_id ?? null, reserved_tokens: record.reserved_tokens ?? null, total_tokens: record.total_tokens ?? null,
      outcome: record.outcome ?? null, record,
    });
  }

  trouble(): ReturnType<CallBook['trouble']> {
    return this.writer.trouble();
  }
}
