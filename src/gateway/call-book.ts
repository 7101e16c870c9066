/**
 * Where a call's reservation, ledger record and settlement go. A gateway with a data dir
 * journals the reservation before the call leaves and writes record then settlement through
 * one write order (spend-journal.ts, write-queue.ts); a gateway inside a run keeps records in
 * memory for the run's own ledger and books spend in its in-memory key store.
 */
import type { SpendJournal, Reservation } from './durable/spend-journal.js';
import type { DiskTrouble } from './durable/write-queue.js';
import type { KeyStore } from './keys/key-store.js';
import type { CallSink, GatewayCallRecord } from './ledger/gateway-record.js';

export interface Settlement {
  callId: string;
  keyId: string;
  /** Tokens booked against the key: the bill, or the reservation when the bill is unknown. */
  booked: number;
  /** Tokens billed beyond the reservation, if any. */
  over: number | undefined;
}

export interface CallBook {
  /**
   * Before the call goes upstream; false when the disk refuses (the call must not go). A
   * promise when the book writes somewhere it must wait for (a run's database, intent-book.ts).
   */
  reserve(reservation: Reservation): boolean | Promise<boolean>;
  /** The call's ledger record, then — for a call that reserved — its settlement, in that order. */
  finish(record: GatewayCallRecord, settlement: Settlement | undefined): void;
  /** Disk trouble that refuses new calls, if any. */
  trouble(): DiskTrouble | undefined;
}

export function memoryBook(sink: CallSink, keys: KeyStore): CallBook {
  return {
    reserve: () => true,
    finish(record, settlement) {
      sink.write(record);
      if (settlement !== undefined) keys.addSpent(settlement.keyId, settlement.booked);
    },
    trouble: () => undefined,
  };
}

/** `sink` must write through the journal's write queue, so a record always lands before its settlement. */
export function journalBook(sink: CallSink, journal: SpendJournal): CallBook {
  return {
    reserve: (reservation) => journal.reserve(reservation),
    finish(record, settlement) {
      sink.write(record);
      if (settlement !== undefined) journal.settle(settlement.callId, settlement.keyId, settlement.booked, settlement.over);
    },
    trouble: () => journal.trouble(),
  };
}
