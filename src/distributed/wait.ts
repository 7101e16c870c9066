/**
 * Waiting for a distributed run: the same progress display as an embedded run, fed from the
 * results the workers commit; done when every unit is committed, failed when a unit's job ran
 * out of retries.
 */
import { IsobudgetError } from '../core/errors.js';
import type { Database } from '../db/spec.js';
import type { ResultRecord } from '../ledger/records.js';
import { sleep } from '../runner/pool.js';
import { armsFor } from '../runner/plan.js';
import { Progress, type ProgressSink } from '../runner/progress.js';
import { backoffMs, isConnectionError } from '../db/connection-errors.js';
import { OutageLog } from './heartbeat.js';
import { RunNotifications } from './run-notifications.js';
import type { JobQueue } from './jobs.js';
import { sweepLapsed } from './unit-leases.js';
import { requireRun } from './run-store.js';

export interface WaitOptions {
  db: Database;
  queue: JobQueue;
  runId: string;
  progress?: ProgressSink;
  signal?: AbortSignal;
  pollMs?: number;
  /** While listening (LISTEN/NOTIFY), how often it reads anyway (ms). */
  listenPollMs?: number;
  /** Lines for the operator (the database lost and back). */
  log?: (line: string) => void;
}

/** While listening: a read every 5 s regardless (the supervisor's sweep, a missed notification). */
const SLOW_POLL_MS = 5000;

/** How far back each poll looks for late commits (result ids). */
const LOOK_BACK = 1000;

export type WaitOutcome = { done: true; units: number } | { done: false; reason: string };

export async function waitForRun(options: WaitOptions): Promise<WaitOutcome> {
  const { db, runId } = options;
  const run = await requireRun(db, runId);
  const already = (await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM units WHERE run_id = $1 AND state = 'committed'`, [runId])).rows[0]?.n ?? 0;
  const progress = new Progress({ total: run.units_planned - already, sink: options.progress, arms: armsFor(run.manifest.config.budget.bestOfN) });
  // Results committed before this wait started are not progress of this wait.
  const floor = Number((await db.query<{ id: string }>('SELECT COALESCE(max(id), 0)::text AS id FROM results WHERE run_id = $1', [runId])).rows[0]?.id ?? 0);
  const state = { lastId: floor, floor, seen: new Set<number>() };
  const outage = new OutageLog(options.log ?? (() => {}), `run ${runId}`);
  const notifications = new RunNotifications(db, runId);
  try {
    for (;;) {
      if (options.signal?.aborted) return { done: false, reason: 'interrupted' };
      try {
        const outcome = await poll(options, run.units_planned, progress, state);
        outage.ok();
        if (outcome) return outcome;
      } catch (error) {
        // The database went away (a restart, a failover): wait it out, the workers do the same.
        if (!isConnectionError(error)) throw error;
        outage.lost(error);
        await sleep(backoffMs(outage.failures), options.signal).catch(() => undefined);
        continue;
      }
      // Woken by the commit's NOTIFY; the slow interval only covers a missed one (and sweeps leases).
      await notifications.wait(notifications.listening ? (options.listenPollMs ?? SLOW_POLL_MS) : (options.pollMs ?? 500), options.signal);
    }
  } finally {
    notifications.close();
    progress.finish();
  }
}

async function poll(
  options: WaitOptions,
  planned: number,
  progress: Progress,
  state: { lastId: number; floor: number; seen: Set<number> },
): Promise<WaitOutcome | undefined> {
  const { db, runId } = options;
  // The waiting submitter is a supervisor too: a dead worker's units go back even with no live worker to notice.
  await sweepLapsed(db, options.queue.schema);
  // Ids are taken at insert and seen at commit: a unit committed late can carry an id below
  // one already seen, so each poll looks back a window and skips what it has counted.
  const fresh = (
    await db.query<{ id: string; record: ResultRecord }>('SELECT r.id::text AS id, r.record FROM results r WHERE r.run_id = $1 AND r.id > $2 ORDER BY r.id', [
      runId,
      state.lastId - LOOK_BACK,
    ])
  ).rows;
  for (const row of fresh) {
    const id = Number(row.id);
    if (id <= state.floor || state.seen.has(id)) continue;
    state.seen.add(id);
    state.lastId = Math.max(state.lastId, id);
    if (row.record.total_tokens !== undefined) progress.addSpend(row.record.arm, row.record.total_tokens);
    progress.unitDone(row.record);
  }
  const counts = (
    await db.query<{ units: number; open: number; status: string }>(
      `SELECT count(*)::int AS units, (count(*) FILTER (WHERE state <> 'committed'))::int AS open, (SELECT status FROM runs WHERE run_id = $1) AS status FROM units WHERE run_id = $1`,
      [runId],
    )
  ).rows[0] ?? { units: 0, open: 0, status: 'running' };
  if (counts.status === 'cancelled') return { done: false, reason: 'it was cancelled (isobudget runs cancel); give its units back with isobudget runs requeue ID --db URL' };
  // A run whose units are not all in the database is not complete, whatever is committed.
  if (counts.units < planned) return { done: false, reason: `its submission is incomplete (${counts.units} of ${planned} units in the database)` };
  if (counts.open === 0) return { done: true, units: planned };
  const failed = (
    await db.query<{ unit_key: string; last_error: string | null }>(
      `SELECT unit_key, last_error FROM units WHERE run_id = $1 AND state = 'failed' ORDER BY seq`,
      [runId],
    )
  ).rows;
  const first = failed[0];
  if (first)
    return {
      done: false,
      reason: `${failed.length} unit(s) failed on every attempt, e.g. ${first.unit_key}${first.last_error ? `: ${first.last_error}` : ''}`,
    };
  return undefined;
}

export function notFinished(runId: string, reason: string): IsobudgetError {
  return new IsobudgetError('run_incomplete', `run ${runId}: ${reason}`, {
    hint: `fix the cause, then re-submit (isobudget run EXPERIMENT.yaml --run-id ${runId} --db URL --distributed) or give failed units new attempts (isobudget runs requeue ${runId} --failed --db URL)`,
  });
}
