/**
 * Settlement writes of a replica, off the request's path. Settlements are group-committed:
 * whatever gathers while one batch is being written goes in the next, as one statement
 * (sql.ts SETTLE_BATCH) — one commit for many calls instead of one each, on a key row every
 * replica updates. Writes are retried while the database is unreachable (the reservation row
 * keeps the call's tokens booked meanwhile, and a replica killed before its write lands is
 * reclaimed: nothing billed goes unbooked). While writes fail, `trouble()` makes the gateway
 * refuse new calls with 503.
 */
import type { Database } from '../../../db/index.js';
import type { DiskTrouble } from '../../durable/write-queue.js';
import { SETTLE_BATCH } from './sql.js';
import { isConnectionError } from '../../../db/connection-errors.js';

/** One row of SETTLE_BATCH's input. */
export interface SettlementRow {
  ticket: string | null;
  kind: 'call' | 'lease' | 'none';
  key_id: string;
  booked: number;
  over: number;
  lease_part: number;
  call_id: string;
  replica_id: string;
  ts: string;
  model: string;
  endpoint: string;
  status: number | null;
  session_id: string | null;
  reserved_tokens: number | null;
  total_tokens: number | null;
  outcome: string | null;
  record: unknown;
}

/** Most settlements in one statement. */
const BATCH_LIMIT = 500;

/** Attempts for an error that is not a lost connection (a bug, or a constraint): logged, then dropped. */
const OTHER_ATTEMPTS = 3;
const MAX_BACKOFF_MS = 2_000;
/** How often an unreachable database is probed (ms). */
const PROBE_MS = 1_000;

export class PgWriter {
  private readonly pending = new Set<Promise<void>>();
  private failing: DiskTrouble | undefined;
  private queued: SettlementRow[] = [];
  private batch: Promise<void> | undefined;
  /** Settlements of the batch being written now (out of `queued`, not yet committed). */
  private writing = 0;
  private probe: NodeJS.Timeout | undefined;

  constructor(private readonly db: Database, private readonly where: string, private readonly log?: (line: string) => void) {}

  run(sql: string, params: unknown[]): void {
    const write: Promise<void> = this.attempt(sql, params).finally(() => this.pending.delete(write));
    this.pending.add(write);
  }

  /** Queues a settlement for the next batch; a batch starts at once when none is being written. */
  settle(row: SettlementRow): void {
    this.queued.push(row);
    this.batch ??= this.writeBatches();
  }

  /** Set while writes fail: new calls are refused until one succeeds. */
  trouble(): DiskTrouble | undefined {
    return this.failing;
  }

  /**
   * A query on the request's path failed or succeeded: the same health signal. While the
   * database is unreachable new calls are refused without trying it, so a probe looks every
   * second and clears the trouble once it answers.
   */
  note(error: unknown): void {
    if (error === undefined) {
      this.failing = undefined;
      return;
    }
    if (!isConnectionError(error)) return;
    if (this.failing === undefined) this.log?.(`database ${this.where} unreachable (${codeOf(error)}): refusing new calls with 503 until it answers`);
    this.failing = { code: codeOf(error), message: `isobudget gateway: the database ${this.where} is unreachable (${codeOf(error)}); retry shortly` };
    this.probe ??= setInterval(() => {
      this.db.query('SELECT 1').then(() => {
        clearInterval(this.probe);
        this.probe = undefined;
        if (this.failing !== undefined) this.log?.(`database ${this.where} answers again: taking calls`);
        this.failing = undefined;
      }, () => {});
    }, PROBE_MS);
    this.probe.unref();
  }

  /** Stops the probe (the store is closing). */
  stop(): void {
    if (this.probe) clearInterval(this.probe);
    this.probe = undefined;
  }

  get backlog(): number {
    return this.pending.size + this.queued.length + this.writing;
  }

  async flush(): Promise<void> {
    while (this.pending.size > 0 || this.batch !== undefined) await Promise.allSettled([...this.pending, this.batch]);
  }

  private async writeBatches(): Promise<void> {
    // Let the calls finishing in this tick join the first batch.
    await new Promise((resolve) => setImmediate(resolve));
    while (this.queued.length > 0) {
      const rows = this.queued.splice(0, BATCH_LIMIT);
      this.writing = rows.length;
      try {
        await this.attempt(SETTLE_BATCH, [JSON.stringify(rows)], 'isobudget_settle_batch');
      } finally {
        this.writing = 0;
      }
    }
    this.batch = undefined;
  }

  private async attempt(sql: string, params: unknown[], name?: string): Promise<void> {
    for (let attempt = 1; ; attempt += 1) {
      try {
        await this.db.query(name === undefined ? { text: sql, values: params } : { name, text: sql, values: params });
        this.failing = undefined;
        return;
      } catch (error) {
        const lost = isConnectionError(error);
        this.note(error);
        // A deadlock or serialization failure (two batches of two replicas on the same keys) is retried like a lost connection.
        const again = lost || isConflict(error);
        if (!again && attempt >= OTHER_ATTEMPTS) {
          this.log?.(`settlement write failed ${attempt} times, dropped (its reservation stays booked): ${error instanceof Error ? error.message : String(error)}`);
          return;
        }
        await new Promise((resolve) => setTimeout(resolve, Math.min(MAX_BACKOFF_MS, 50 * 2 ** attempt)));
      }
    }
  }
}

/** A deadlock (40P01) or serialization failure (40001): the statement did nothing and may simply run again. */
export function isConflict(error: unknown): boolean {
  return /^40(P01|001)$/.test((error as { code?: string } | undefined)?.code ?? '');
}

/** Runs `query` again (up to 5 times) when Postgres aborted it to break a deadlock. */
export async function retryConflicts<T>(query: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await query();
    } catch (error) {
      if (!isConflict(error) || attempt >= 5) throw error;
      await new Promise((resolve) => setTimeout(resolve, 5 * attempt * Math.random()));
    }
  }
}

function codeOf(error: unknown): string {
  return (error as { code?: string } | undefined)?.code ?? (error instanceof Error ? error.message.slice(0, 80) : 'error');
}

export { isConnectionError };

/**
 * A named (prepared) statement on the budget path: parsed and planned once per connection,
 * retried on a deadlock, and its outcome told to the writer (which tracks database trouble).
 */
export async function budgetQuery(db: Database, writer: PgWriter, name: string, text: string, values: unknown[]): Promise<{ rows: unknown[] }> {
  try {
    const result = await retryConflicts(() => db.query({ name, text, values }));
    writer.note(undefined);
    return result;
  } catch (error) {
    writer.note(error);
    throw error;
  }
}
