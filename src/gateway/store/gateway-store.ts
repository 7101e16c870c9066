/**
 * What the gateway's proxy needs from storage, behind one interface: key lookup, budget
 * admission and settlement, and the call book (reservation, record, settlement). The proxy
 * logic (server.ts, proxy/*) is written once against it; two implementations exist:
 *
 * - embedded (`embeddedStore`): SQLite keys, in-memory budgets, spend journal and daily
 *   JSONL ledger in a data dir — one gateway process per key store;
 * - Postgres (`store/pg/*`, `isobudget gateway --db URL`): keys, reservations and calls in
 *   shared tables, so any number of replicas enforce one budget per key.
 */
import type { Budgets } from '../budget/budgets.js';
import { KeyBudgets } from '../budget/key-budgets.js';
import { journalBook, memoryBook, type CallBook } from '../call-book.js';
import type { SpendJournal } from '../durable/spend-journal.js';
import type { KeyStore } from '../keys/key-store.js';
import type { VirtualKey } from '../keys/virtual-key.js';
import type { CallSink } from '../ledger/gateway-record.js';

/** Finds the key a client presented (revoked keys are returned, flagged). */
export interface KeyLookup {
  verify(secret: string): VirtualKey | undefined | Promise<VirtualKey | undefined>;
}

export type { Budgets } from '../budget/budgets.js';

export interface GatewayStore {
  keys: KeyLookup;
  budgets: Budgets;
  book: CallBook;
  /** Stops background work (heartbeats, batches) after the server closed; the caller owns the connections. */
  close(): Promise<void>;
}

export interface EmbeddedStoreOptions {
  keys: KeyStore;
  /** Where call records go. With `journal`, it must write through the journal's write queue. */
  sink: CallSink;
  journal?: SpendJournal | undefined;
  budgetWaitMs?: number | undefined;
}

/** Today's gateway: SQLite key store, in-memory budgets, journal or in-memory book. */
export function embeddedStore(options: EmbeddedStoreOptions): GatewayStore {
  const { keys, sink, journal } = options;
  return {
    keys,
    budgets: new KeyBudgets(keys, options.budgetWaitMs),
    book: journal === undefined ? memoryBook(sink, keys) : journalBook(sink, journal),
    close: async () => {},
  };
}
