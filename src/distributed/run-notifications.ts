/**
 * `runs wait` listens instead of polling: a unit's commit (and a unit running out of
 * attempts, a cancel) sends NOTIFY on one channel with the run id, delivered when its
 * transaction commits. The waiter holds one session for LISTEN; each wake-up is one read of
 * what changed. A lost session is re-opened at the next wait; until then (and as a safety
 * net against a missed notification) the waiter polls at its slow interval.
 */
import type pg from 'pg';
import type { Database } from '../db/spec.js';

export const RUNS_CHANNEL = 'isobudget_runs';

/** NOTIFY inside the caller's transaction (delivered at its commit). */
export async function notifyRun(db: Pick<Database, 'query'>, runId: string): Promise<void> {
  await db.query('SELECT pg_notify($1, $2)', [RUNS_CHANNEL, runId]);
}

export class RunNotifications {
  private client: pg.PoolClient | undefined;
  private wake: (() => void) | undefined;
  private pending = false;

  constructor(private readonly db: Database, private readonly runId: string) {}

  /** Whether a session is listening now (else the caller polls at its fast interval). */
  get listening(): boolean {
    return this.client !== undefined;
  }

  /** Resolves on a notification for this run, or after `ms`. */
  async wait(ms: number, signal?: AbortSignal): Promise<void> {
    await this.listen().catch(() => undefined);
    if (this.pending) {
      this.pending = false;
      return;
    }
    await new Promise<void>((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', done);
        this.wake = undefined;
        resolve();
      };
      const timer = setTimeout(done, ms);
      signal?.addEventListener('abort', done, { once: true });
      this.wake = done;
    });
    this.pending = false;
  }

  private async listen(): Promise<void> {
    if (this.client) return;
    const client = await this.db.connect();
    const drop = (): void => {
      if (this.client !== client) return;
      this.client = undefined;
      client.release(true);
      this.wake?.();
    };
    client.on('error', drop);
    client.on('end', drop);
    client.on('notification', (message) => {
      if (message.payload !== this.runId) return;
      this.pending = true;
      this.wake?.();
    });
    try {
      await client.query(`LISTEN ${RUNS_CHANNEL}`);
    } catch (error) {
      client.release(true);
      throw error;
    }
    this.client = client;
  }

  close(): void {
    const client = this.client;
    this.client = undefined;
    if (client) {
      client.query(`UNLISTEN ${RUNS_CHANNEL}`).catch(() => undefined).finally(() => client.release());
    }
  }
}
