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
import { UNIT_QUEUE, type JobQueue } from './jobs.js';
import { requireRun } from './run-store.js';

export interface WaitOptions {
  db: Database;
  queue: JobQueue;
  runId: string;
  progress?: ProgressSink;
  signal?: AbortSignal;
  pollMs?: number;
}

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
  let lastId = floor;
  const seen = new Set<number>();
  try {
    for (;;) {
      if (options.signal?.aborted) return { done: false, reason: 'interrupted' };
      // Ids are taken at insert and seen at commit: a unit committed late can carry an id below
      // one already seen, so each poll looks back a window and skips what it has counted.
      const fresh = (await db.query<{ id: string; record: ResultRecord }>('SELECT r.id::text AS id, r.record FROM results r WHERE r.run_id = $1 AND r.id > $2 ORDER BY r.id', [runId, lastId - LOOK_BACK])).rows;
      for (const row of fresh) {
        const id = Number(row.id);
        if (id <= floor || seen.has(id)) continue;
        seen.add(id);
        lastId = Math.max(lastId, id);
        if (row.record.total_tokens !== undefined) progress.addSpend(row.record.arm, row.record.total_tokens);
        progress.unitDone(row.record);
      }
      const open = (await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM units WHERE run_id = $1 AND state <> 'committed'`, [runId])).rows[0]?.n ?? 0;
      if (open === 0) return { done: true, units: run.units_planned };
      const failed = (await db.query<{ unit_key: string }>(
        `SELECT j.data->>'unit_key' AS unit_key FROM ${options.queue.schema}.job j JOIN units u ON u.run_id = j.data->>'run_id' AND u.unit_key = j.data->>'unit_key'
         WHERE j.name = $1 AND j.data->>'run_id' = $2 AND j.state = 'failed' AND u.state <> 'committed'
           AND NOT EXISTS (SELECT 1 FROM ${options.queue.schema}.job k WHERE k.name = $1 AND k.data = j.data AND k.state < 'completed')`,
        [UNIT_QUEUE, runId],
      )).rows;
      if (failed.length > 0) return { done: false, reason: `${failed.length} unit(s) failed on every attempt, e.g. ${failed[0]?.unit_key}` };
      await sleep(options.pollMs ?? 500, options.signal).catch(() => undefined);
    }
  } finally {
    progress.finish();
  }
}

export function notFinished(runId: string, reason: string): IsobudgetError {
  return new IsobudgetError('run_incomplete', `run ${runId}: ${reason}`, { hint: `fix the cause, then re-submit: isobudget run --resume ${runId} --db URL --distributed` });
}
