/**
 * `isobudget worker`: takes unit jobs from the queue, runs each with the runner's `runUnit`
 * and commits its calls and result in one transaction. A job whose worker dies stays active
 * until its lease (`expireInSeconds`) runs out; pg-boss then hands it to another worker.
 */
import { randomBytes } from 'node:crypto';
import type PgBoss from 'pg-boss';
import { IsobudgetError } from '../core/errors.js';
import type { Database } from '../db/spec.js';
import { createUnitContext, runUnit } from '../runner/run-unit.js';
import { sleep } from '../runner/pool.js';
import { UNIT_QUEUE, type JobQueue, type UnitJob } from './jobs.js';
import { getRun, getUnit } from './run-store.js';
import { openRunRuntime, type RunRuntime, type RuntimeOptions } from './worker-runtime.js';
import { UnitLedger } from './unit-ledger.js';

export interface WorkerOptions extends Omit<RuntimeOptions, 'signal'> {
  queue: JobQueue;
  /** Units in flight at once in this process. */
  concurrency: number;
  /** Exit once no unit job is queued, retrying or active anywhere. */
  untilIdle: boolean;
  signal: AbortSignal;
  /** How long an idle lane waits before asking again (ms). */
  pollMs?: number;
  log?: (line: string) => void;
}

export interface WorkerSummary {
  committed: number;
  /** Units another attempt had committed first (their calls booked interrupted). */
  duplicates: number;
  failed: number;
}

export async function runWorker(options: WorkerOptions): Promise<WorkerSummary> {
  const { queue, db } = options;
  const summary: WorkerSummary = { committed: 0, duplicates: 0, failed: 0 };
  const abort = new AbortController();
  const stop = (): void => abort.abort(options.signal.reason ?? new IsobudgetError('interrupted', 'worker stopped'));
  options.signal.addEventListener('abort', stop, { once: true });
  if (options.signal.aborted) stop();
  const runtimes = new Map<string, Promise<RunRuntime>>();
  const runtimeFor = (runId: string): Promise<RunRuntime> => {
    let pending = runtimes.get(runId);
    if (!pending) {
      pending = (async () => {
        const row = await getRun(db, runId);
        if (!row) throw new IsobudgetError('not_found', `run ${runId} of a queued unit is not in the database`);
        return openRunRuntime(row, { ...options, signal: abort.signal });
      })();
      runtimes.set(runId, pending);
    }
    return pending;
  };
  let fatal: unknown;
  const lane = async (): Promise<void> => {
    while (!abort.signal.aborted) {
      const [job] = await queue.boss.fetch<UnitJob>(UNIT_QUEUE, { batchSize: 1, includeMetadata: true });
      if (!job) {
        if (options.untilIdle && (await queue.boss.getQueueSize(UNIT_QUEUE, { before: 'completed' })) === 0) return;
        await sleep(options.pollMs ?? 500, abort.signal).catch(() => undefined);
        continue;
      }
      let runtime: RunRuntime;
      try {
        runtime = await runtimeFor(job.data.run_id);
      } catch (error) {
        // This machine cannot run this run (a differing code file): give the job back and stop.
        await queue.boss.fail(UNIT_QUEUE, job.id, { message: error instanceof Error ? error.message : String(error) }).catch(() => undefined);
        fatal ??= error;
        abort.abort(error);
        return;
      }
      const outcome = await runJob(db, queue.boss, runtime, job, abort.signal, options.log);
      summary[outcome] += 1;
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.max(1, options.concurrency) }, lane));
  } finally {
    options.signal.removeEventListener('abort', stop);
    for (const pending of runtimes.values()) await (await pending.catch(() => undefined))?.close().catch(() => undefined);
  }
  if (fatal !== undefined) throw fatal;
  return summary;
}

async function runJob(db: Database, boss: PgBoss, runtime: RunRuntime, job: PgBoss.JobWithMetadata<UnitJob>, signal: AbortSignal, log?: (line: string) => void): Promise<keyof WorkerSummary> {
  const { run_id: runId, unit_key: key } = job.data;
  const row = await getUnit(db, runId, key);
  if (!row || row.state === 'committed') {
    // A re-submitted or retried job of a unit that is already in the ledger: nothing to do.
    await boss.complete(UNIT_QUEUE, job.id);
    return 'duplicates';
  }
  await db.query('UPDATE units SET attempts = attempts + 1 WHERE run_id = $1 AND unit_key = $2', [runId, key]);
  const attemptId = `${job.id.slice(0, 8)}r${job.retryCount}${randomBytes(3).toString('hex')}`;
  const ledger = new UnitLedger(db, { runId, unitKey: key, attemptId, seq: row.seq }, runtime.redact);
  runtime.ledgers.set(key, ledger);
  const unit = runtime.unitOf(row);
  const context = createUnitContext(runtime.run, unit);
  try {
    const outcome = await runUnit(runtime.run, unit, runtime.services, context);
    if (signal.aborted) throw signal.reason;
    const won = await ledger.commit(context.calls, outcome.result);
    await boss.complete(UNIT_QUEUE, job.id);
    return won ? 'committed' : 'duplicates';
  } catch (error) {
    // Billed calls of an attempt that will not commit are kept apart (interrupted), never lost.
    await ledger.abandon(context.calls).catch(() => undefined);
    const message = error instanceof Error ? error.message : String(error);
    log?.(`unit ${key} of run ${runId} failed (attempt ${job.retryCount + 1}): ${message}`);
    await boss.fail(UNIT_QUEUE, job.id, { message }).catch(() => undefined);
    return 'failed';
  } finally {
    runtime.ledgers.delete(key);
  }
}
