/**
 * A call book that waits, before each call leaves, for its intent to be written somewhere
 * durable the gateway does not own — a distributed worker's `calls` table — so a process
 * killed while the call is in flight still leaves a row naming the call and what it reserved.
 * A failed write refuses the call (503, retry after 5 s), since an unrecorded call must not go.
 * Everything else is the inner book's; a gateway without a hook never builds one of these.
 */
import type { CallBook } from './call-book.js';
import type { Reservation } from './durable/spend-journal.js';
import type { DiskTrouble } from './durable/write-queue.js';

/** Writes one call's intent; resolves once it is durable. */
export type IntentWriter = (reservation: Reservation) => Promise<void>;

/** How long a failed intent write refuses new calls (ms): the 503's retry-after. */
const TROUBLE_MS = 5_000;

export function intentBook(inner: CallBook, write: IntentWriter, now: () => number = Date.now): CallBook {
  let failed: { trouble: DiskTrouble; at: number } | undefined;
  return {
    async reserve(reservation) {
      try {
        await write(reservation);
      } catch (error) {
        const reason = error instanceof Error ? error.message.split('\n')[0] : String(error);
        failed = { at: now(), trouble: { code: 'EINTENT', message: `isobudget gateway: cannot record the call before it leaves (${reason ?? 'unknown error'})` } };
        return false;
      }
      failed = undefined;
      return inner.reserve(reservation);
    },
    finish: (record, settlement) => inner.finish(record, settlement),
    trouble: () => (failed !== undefined && now() - failed.at < TROUBLE_MS ? failed.trouble : inner.trouble()),
  };
}
