/**
 * A gateway replica's storage on Postgres: registers the replica (reclaiming what dead ones
 * left), then serves keys, budgets — per call, or from leases — and the call book from the
 * shared tables. `close` gives leases back, waits for settlements, and marks the replica stopped.
 */
import type { Database } from '../../../db/index.js';
import type { GatewayCallRecord } from '../../ledger/gateway-record.js';
import type { GatewayStore } from '../gateway-store.js';
import { AutoLeases } from './auto-leases.js';
import { CallBudgets } from './call-budgets.js';
import { LeaseBudgets } from './lease-budgets.js';
import { PgBook } from './pg-book.js';
import { PgKeys } from './pg-keys.js';
import { PgWriter } from './pg-writer.js';
import { Replica, type Reclaimed } from './replica.js';

export interface PgStoreOptions {
  db: Database;
  /** The database as messages show it (no password). */
  where: string;
  /** The upstream as the ledger shows it. */
  upstream: string;
  /** Lease size (tokens); undefined: every call reserves with its own statement. */
  leaseTokens?: number | undefined;
  /** Per-call mode: false turns its automatic leases off (every call reserves on the key row). Default true. */
  autoLease?: boolean | undefined;
  /** A replica silent this long is declared dead and reclaimed (ms). */
  staleMs?: number | undefined;
  heartbeatMs?: number | undefined;
  budgetWaitMs?: number | undefined;
  cost?: ((record: GatewayCallRecord) => number | null) | undefined;
  log?: ((line: string) => void) | undefined;
}

export interface PgGatewayStore extends GatewayStore {
  keys: PgKeys;
  replica: Replica;
  /** What this replica reclaimed from dead ones as it started. */
  reclaimedAtStart: Reclaimed;
  /** Settlement writes not yet committed. */
  backlog(): number;
}

/** Longest a stopping replica waits for its settlements to be written (ms). */
const CLOSE_WAIT_MS = 10_000;

export async function openPgStore(options: PgStoreOptions): Promise<PgGatewayStore> {
  const { db, log } = options;
  const replica = new Replica(db, { upstream: options.upstream, leaseTokens: options.leaseTokens, staleMs: options.staleMs, heartbeatMs: options.heartbeatMs, log });
  const reclaimedAtStart = await replica.start();
  const writer = new PgWriter(db, options.where, log);
  const leases = options.leaseTokens === undefined ? undefined : new LeaseBudgets(db, replica, writer, options.leaseTokens, options.budgetWaitMs);
  const auto = leases === undefined && options.autoLease !== false ? new AutoLeases(db, replica, writer) : undefined;
  const budgets = leases ?? new CallBudgets(db, replica, writer, options.budgetWaitMs, auto);
  return {
    keys: new PgKeys(db, undefined, (error) => writer.note(error)),
    budgets,
    book: new PgBook(writer, replica, options.cost),
    replica,
    reclaimedAtStart,
    backlog: () => writer.backlog,
    close: async () => {
      leases?.returnAll();
      auto?.returnAll();
      // An unreachable database must not keep the process from stopping: what is not written by
      // then stays reserved, and another replica reclaims it as spent once this one is silent.
      const drained = await Promise.race([writer.flush().then(() => true), new Promise<false>((resolve) => setTimeout(resolve, CLOSE_WAIT_MS, false).unref())]);
      writer.stop();
      if (!drained) {
        log?.(`stopping with ${writer.backlog} settlement(s) unwritten: their reservations stay booked until another replica reclaims this one`);
        return;
      }
      const left = await replica.stop().catch((error: unknown) => {
        log?.(`could not mark this replica stopped (${error instanceof Error ? error.message : String(error)}): another replica will reclaim it`);
        return undefined;
      });
      if (left !== undefined && left.reservations > 0) log?.(`stopping with ${left.reservations} reservation(s) unsettled: ${left.tokens} tokens booked as spent (unknown_after_crash)`);
    },
  };
}
