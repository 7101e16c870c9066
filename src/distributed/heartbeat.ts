/**
 * A worker's heartbeat loop: every beat it renews its row and the leases of the units it
 * runs (aborting any it no longer holds: the supervisor gave them to another worker while
 * this one was silent), retries the give-backs the database refused while it was away, and
 * runs the supervisor's pass over everybody else's leases, then folds the call totals of
 * units already committed into their hour rows (call-totals.ts). A lost database is waited out
 * with back-off; one line when it goes, one when it is back.
 */
import { backoffMs, isConnectionError } from '../db/connection-errors.js';
import type { Database } from '../db/spec.js';
import { sleep } from '../runner/pool.js';
import { renewLeases, sweepLapsed } from './unit-leases.js';
import { foldCommittedUnits } from './call-totals.js';
import { beat } from './worker-registry.js';

export interface HeldAttempt {
  runId: string;
  unitKey: string;
  /** Aborts the attempt (its lease was lost). */
  abort: AbortController;
}

export interface HeartbeatOptions {
  db: Database;
  jobSchema: string;
  workerId: string;
  deadAfterSeconds: number;
  /** Attempts in flight, by attempt id. */
  held: Map<string, HeldAttempt>;
  /** Writes the database refused (a give-back during an outage): retried each beat until they land. */
  pending: Array<() => Promise<unknown>>;
  log: (line: string) => void;
  signal: AbortSignal;
}

/** Beat interval (ms): five beats per --dead-after, so two lost beats never look like death. */
export function beatIntervalMs(deadAfterSeconds: number): number {
  return Math.max(200, Math.round((deadAfterSeconds * 1000) / 5));
}

/** Tracks an outage: one line when the database goes, one when it is back. */
export class OutageLog {
  private since: number | undefined;
  failures = 0;
  constructor(
    private readonly log: (line: string) => void,
    private readonly what: string,
  ) {}

  lost(error: unknown): void {
    this.failures += 1;
    if (this.since !== undefined) return;
    this.since = Date.now();
    const raw = (error as { code?: string } | undefined)?.code ?? (error instanceof Error ? error.message : String(error));
    const code = raw === '53300' ? 'too many connections, SQLSTATE 53300: the server\'s max_connections is used up' : raw;
    this.log(`${this.what}: database unreachable (${code}); retrying with back-off`);
  }

  ok(): void {
    this.failures = 0;
    if (this.since === undefined) return;
    this.log(`${this.what}: database back after ${((Date.now() - this.since) / 1000).toFixed(1)} s`);
    this.since = undefined;
  }
}

export async function runHeartbeat(options: HeartbeatOptions): Promise<void> {
  const { db, held, pending, signal } = options;
  const outage = new OutageLog(options.log, 'heartbeat');
  while (!signal.aborted) {
    try {
      await beat(db, options.workerId);
      const lost = await renewLeases(db, options.jobSchema, options.workerId, [...held.keys()], options.deadAfterSeconds);
      for (const attemptId of lost) {
        const attempt = held.get(attemptId);
        if (!attempt) continue;
        options.log(`unit ${attempt.unitKey} of run ${attempt.runId}: lease lost (this worker was silent past --dead-after; another worker runs it): aborted`);
        attempt.abort.abort(new Error('lease lost'));
      }
      while (pending.length > 0) {
        await pending[0]?.();
        pending.shift();
      }
      const swept = await sweepLapsed(db, options.jobSchema);
      for (const unit of swept.deadLettered) options.log(`unit ${unit.unitKey} of run ${unit.runId} failed: ${unit.error}`);
      await foldCommittedUnits(db);
      outage.ok();
    } catch (error) {
      if (!isConnectionError(error)) options.log(`heartbeat: ${error instanceof Error ? error.message : String(error)}`);
      else outage.lost(error);
    }
    const wait =
      outage.failures > 0 ? Math.min(beatIntervalMs(options.deadAfterSeconds), backoffMs(outage.failures)) : beatIntervalMs(options.deadAfterSeconds);
    await sleep(wait, signal).catch(() => undefined);
  }
}
