/**
 * Settlement writes of a replica, off the request's path: each is one statement, retried
 * while the database is unreachable (the reservation row keeps the call's tokens booked
 * meanwhile, and a replica killed before its write lands is reclaimed: nothing billed goes
 * unbooked). While writes fail, `trouble()` makes the gateway refuse new calls with 503.
 */
import type { Database } from '../../../db/index.js';
import type { DiskTrouble } from '../../durable/write-queue.js';

/** Attempts for an error that is not a lost connection (a bug, or a constraint): logged, then dropped. */
const OTHER_ATTEMPTS = 3;
const MAX_BACKOFF_MS = 2_000;

export class PgWriter {
  private readonly pending = new Set<Promise<void>>();
  private failing: DiskTrouble | undefined;

  constructor(private readonly db: Database, private readonly where: string, private readonly log?: (line: string) => void) {}

  run(sql: string, params: unknown[]): void {
    const write: Promise<void> = this.attempt(sql, params).finally(() => this.pending.delete(write));
    this.pending.add(write);
  }

  /** Set while writes fail: new calls are refused until one succeeds. */
  trouble(): DiskTrouble | undefined {
    return this.failing;
  }

  /** A query on the request's path failed or succeeded: the same health signal. */
  note(error: unknown): void {
    if (error === undefined) this.failing = undefined;
    else if (isConnectionError(error)) this.failing = { code: codeOf(error), message: `isobudget gateway: the database ${this.where} is unreachable (${codeOf(error)}); retry shortly` };
  }

  get backlog(): number {
    return this.pending.size;
  }

  async flush(): Promise<void> {
    while (this.pending.size > 0) await Promise.allSettled([...this.pending]);
  }

  private async attempt(sql: string, params: unknown[]): Promise<void> {
    for (let attempt = 1; ; attempt += 1) {
      try {
        await this.db.query(sql, params);
        this.failing = undefined;
        return;
      } catch (error) {
        const lost = isConnectionError(error);
        this.note(error);
        if (!lost && attempt >= OTHER_ATTEMPTS) {
          this.log?.(`settlement write failed ${attempt} times, dropped (its reservation stays booked): ${error instanceof Error ? error.message : String(error)}`);
          return;
        }
        await new Promise((resolve) => setTimeout(resolve, Math.min(MAX_BACKOFF_MS, 50 * 2 ** attempt)));
      }
    }
  }
}

function codeOf(error: unknown): string {
  return (error as { code?: string } | undefined)?.code ?? (error instanceof Error ? error.message.slice(0, 80) : 'error');
}

/** Connection-class failures: ECONNREFUSED/RESET, SQLSTATE 08xxx, admin shutdown 57P0x, pool timeouts. */
export function isConnectionError(error: unknown): boolean {
  const code = (error as { code?: string } | undefined)?.code ?? '';
  if (/^(ECONN|EPIPE|ETIMEDOUT|EHOSTUNREACH|ENOTFOUND)/.test(code) || code.startsWith('08') || code.startsWith('57P')) return true;
  const message = error instanceof Error ? error.message : '';
  return /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error/.test(message);
}
