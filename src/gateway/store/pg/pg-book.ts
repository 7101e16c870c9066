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
import type { PgWriter } from './pg-writer.js';
import type { Replica } from './replica.js';
import { SETTLE_CALL, SETTLE_FROM_LEASE } from './sql.js';

const INSERT_CALL = `
INSERT INTO gateway_calls (call_id, key_id, replica_id, ts, model, endpoint, status, session_id, reserved_tokens, booked_tokens, total_tokens, outcome, record)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, 0, $10, $11, $12)`;

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
    const callId = record.call_id ?? `${this.replica.id}-${Date.now().toString(36)}`;
    const common = [record.model, record.endpoint, record.status ?? null, record.session_id ?? null];
    if (settlement === undefined) {
      this.writer.run(INSERT_CALL, [callId, record.key_id, this.replica.id, record.ts, ...common, record.reserved_tokens ?? null, record.total_tokens ?? null, record.outcome ?? null, JSON.stringify(record)]);
      return;
    }
    const ticket = this.tickets.get(settlement.callId);
    this.tickets.delete(settlement.callId);
    const reserved = record.reserved_tokens ?? 0;
    const params = [
      ticket ?? null, record.key_id, settlement.booked, settlement.over ?? 0, callId, this.replica.id, record.ts, ...common,
      reserved, record.total_tokens ?? null, record.outcome ?? null, JSON.stringify(record),
    ];
    if (ticket?.startsWith(LEASE_PREFIX)) this.writer.run(SETTLE_FROM_LEASE, [...params, Math.min(settlement.booked, reserved)]);
    else this.writer.run(SETTLE_CALL, params);
  }

  trouble(): ReturnType<CallBook['trouble']> {
    return this.writer.trouble();
  }
}
