/**
 * `isobudget worker`: takes unit jobs from the queue, runs each with the runner's `runUnit`
 * and commits its calls and result in one transaction. It registers in `workers` and beats
 * (heartbeat.ts): a worker that dies is found within its --dead-after and its units go back
 * to the queue at once. Only a unit that fails while running uses one of its attempts; a
 * stop (SIGTERM), a refusal (code file or version mismatch) or a lost database hands the
 * unit back untouched. A lost database is waited out with back-off: the worker goes on.
 * A unit whose workers keep dying (a poison unit) is failed by the supervisor after the run's
 * --max-worker-deaths; a worker runs one unit that close to it at a time (unit-leases.ts).
 */
import { randomBytes } from 'node:crypto';
import { IsobudgetError } from '../core/errors.js';
import { backoffMs, isConnectionError, retryConnectionLoss } from '../db/connection-errors.js';
import { createUnitContext, runUnit } from '../runner/run-unit.js';
import { sleep } from '../runner/pool.js';
import { runHeartbeat, OutageLog, type HeldAttempt } from './heartbeat.js';
import { UNIT_QUEUE, type JobQueue, type UnitJob } from './jobs.js';
import { getRun } from './run-store.js';
import { claimUnit, failUnit, handBack, releaseJob, type ClaimedUnit, type Holder } from './unit-leases.js';
import { newWorkerIdentity, registerWorker, stopWorkerRow } from './worker-registry.js';
import { openRunRuntime, type RunRuntime, type RuntimeOptions } from './worker-runtime.js';
import { UnitLedger } from './unit-ledger.js';
import { TOOL_VERSION } from '../version.js';

export interface WorkerOptions extends Omit<RuntimeOptions, 'signal'> {
  queue: JobQueue;
  /** Units in flight at once in this process. */
  concurrency: number;
  /** Exit once no unit job is queued, retrying or active anywhere. */
  untilIdle: boolean;
  signal: AbortSignal;
  /** How long an idle lane waits before asking again (ms). */
  pollMs?: number;
  /** Silent this long (s), this worker is dead for the others and its units are re-queued (default 30). */
  deadAfterSeconds?: number;
  /** isobudget version of this worker: a run submitted by another version is refused (default: this build's). */
  version?: string;
  /** Called once registered (the worker's id, for the start line). */
  onStart?: (workerId: string) => void;
  log?: (line: string) => void;
}

export interface WorkerSummary {
  committed: number;
  /** Units another attempt had committed first (their calls booked interrupted). */
  duplicates: number;
  failed: number;
  /** Units given back without using an attempt (stop, lost database, lost lease). */
  handedBack: number;
}

/** A delay before a unit given back during an outage may be taken again (s). */
const OUTAGE_DELAY_SECONDS = 2;

/** A delay before a suspect unit this worker gave back (it already runs one) may be taken again (s). */
const SUSPECT_DELAY_SECONDS = 2;

export async function runWorker(given: WorkerOptions): Promise<WorkerSummary> {
  const options: Required<Pick<WorkerOptions, 'deadAfterSeconds' | 'version'>> & WorkerOptions = { deadAfterSeconds: 30, version: TOOL_VERSION, ...given };
  const { queue, db } = options;
  const log = options.log ?? (() => {});
  const summary: WorkerSummary = { committed: 0, duplicates: 0, failed: 0, handedBack: 0 };
  const stopping = new AbortController();
  const stop = (): void => stopping.abort(options.signal.reason ?? new IsobudgetError('interrupted', 'worker stopped'));
  options.signal.addEventListener('abort', stop, { once: true });
  if (options.signal.aborted) stop();
  const identity = newWorkerIdentity(options.version);
  await retryConnectionLoss(() => registerWorker(db, identity, options.concurrency, options.deadAfterSeconds), { maxFailures: 12 });
  options.onStart?.(identity.id);
  const held = new Map<string, HeldAttempt>();
  const pending: Array<() => Promise<unknown>> = [];
  const beats = new AbortController();
  const heartbeat = runHeartbeat({
    db,
    jobSchema: queue.schema,
    workerId: identity.id,
    deadAfterSeconds: options.deadAfterSeconds,
    held,
    pending,
    log,
    signal: beats.signal,
  });
  const runtimes = new Map<string, Promise<RunRuntime>>();
  const runtimeFor = (runId: string): Promise<RunRuntime> => {
    let opening = runtimes.get(runId);
    if (!opening) {
      opening = (async () => {
        const row = await getRun(db, runId);
        if (!row) throw new IsobudgetError('not_found', `run ${runId} of a queued unit is not in the database`);
        const submitted = row.manifest.tool?.version;
        if (submitted !== undefined && submitted !== options.version) {
          throw new IsobudgetError('version_mismatch', `run ${runId} was submitted by isobudget ${submitted}; this worker is isobudget ${options.version}`, {
            hint: `run workers of isobudget ${submitted} for this run (its units go back to the queue for them)`,
          });
        }
        return openRunRuntime(row, { ...options, signal: stopping.signal });
      })();
      runtimes.set(runId, opening);
      // A lost connection is not this run's fault: the next unit of it tries again.
      opening.catch((error: unknown) => {
        if (isConnectionError(error)) runtimes.delete(runId);
      });
    }
    return opening;
  };
  const context: JobContext = {
    options,
    holderOf: (attemptId) => ({ workerId: identity.id, attemptId, version: options.version, leaseSeconds: options.deadAfterSeconds }),
    held,
    pending,
    stopping: stopping.signal,
    log,
    suspect: {},
  };
  let fatal: unknown;
  const lane = async (): Promise<void> => {
    const outage = new OutageLog(log, 'worker');
    while (!stopping.signal.aborted) {
      try {
        const [job] = await queue.boss.fetch<UnitJob>(UNIT_QUEUE, { batchSize: 1, includeMetadata: true });
        if (!job) {
          if (options.untilIdle && (await queue.boss.getQueueSize(UNIT_QUEUE, { before: 'completed' })) === 0) return;
          outage.ok();
          await sleep(options.pollMs ?? 500, stopping.signal).catch(() => undefined);
          continue;
        }
        outage.ok();
        try {
          summary[await runJob(context, runtimeFor, job)] += 1;
        } catch (error) {
          if (!(error instanceof RunRefused)) throw error;
          // This machine cannot run this run (a differing code file, another version): the unit
          // went back for another worker, no attempt used, and this worker stops.
          fatal ??= error.cause;
          stopping.abort(error.cause);
          return;
        }
      } catch (error) {
        if (!isConnectionError(error)) throw error;
        outage.lost(error);
        await sleep(backoffMs(outage.failures), stopping.signal).catch(() => undefined);
      }
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.max(1, options.concurrency) }, lane));
  } finally {
    options.signal.removeEventListener('abort', stop);
    stopping.abort(new IsobudgetError('interrupted', 'worker stopped'));
    beats.abort();
    await heartbeat;
    for (const write of pending) await write().catch(() => undefined);
    await stopWorkerRow(db, identity.id).catch(() => undefined);
    for (const opening of runtimes.values()) await (await opening.catch(() => undefined))?.close().catch(() => undefined);
  }
  if (fatal !== undefined) throw fatal;
  return summary;
}

interface JobContext {
  options: WorkerOptions & { version: string; deadAfterSeconds: number };
  holderOf(attemptId: string): Holder;
  held: Map<string, HeldAttempt>;
  pending: Array<() => Promise<unknown>>;
  stopping: AbortSignal;
  log: (line: string) => void;
  /** The attempt that holds (or is claiming) this worker's one suspect unit. */
  suspect: { attemptId?: string | undefined };
}

/** The run of a job cannot run on this worker (its cause says why); the unit was handed back. */
class RunRefused extends Error {
  constructor(override readonly cause: unknown) {
    super('run refused');
  }
}

type FetchedJob = { id: string; data: UnitJob; retryCount: number };

async function runJob(context: JobContext, runtimeFor: (runId: string) => Promise<RunRuntime>, job: FetchedJob): Promise<keyof WorkerSummary> {
  const attemptId = `${job.id.slice(0, 8)}r${job.retryCount}${randomBytes(3).toString('hex')}`;
  try {
    return await runAttempt(context, runtimeFor, job, attemptId);
  } finally {
    // However the attempt ended (committed, failed, handed back, refused), its suspect slot is free.
    if (context.suspect.attemptId === attemptId) context.suspect.attemptId = undefined;
  }
}

async function runAttempt(context: JobContext, runtimeFor: (runId: string) => Promise<RunRuntime>, job: FetchedJob, attemptId: string): Promise<keyof WorkerSummary> {
  const { db, queue } = context.options;
  const { run_id: runId, unit_key: key } = job.data;
  let claimed: ClaimedUnit | { suspect: number } | undefined;
  // One suspect per worker (unit-leases.ts claimUnit): a unit one worker death away from the dead
  // letters never runs beside another such unit, so a poison unit's deaths are not pinned on the
  // units that shared its workers. The lane that may take one holds the slot while it claims.
  const maySuspect = context.suspect.attemptId === undefined;
  if (maySuspect) context.suspect.attemptId = attemptId;
  // Claimed at once, before the run is opened here: a worker that dies from now on is found by its lease.
  try {
    claimed = await claimUnit(db, runId, key, job.id, context.holderOf(attemptId), maySuspect);
  } catch (error) {
    if (isConnectionError(error)) context.pending.push(() => releaseJob(db, queue.schema, job.id, OUTAGE_DELAY_SECONDS));
    throw error;
  }
  if (maySuspect && !(claimed && 'seq' in claimed && claimed.suspect)) context.suspect.attemptId = undefined;
  if (claimed && typeof claimed.suspect === 'number') {
    context.log(`unit ${key} of run ${runId}: not taken (${claimed.suspect} worker(s) died running it, and this worker already runs such a unit; no attempt used)`);
    await releaseJob(db, queue.schema, job.id, SUSPECT_DELAY_SECONDS).catch(() => context.pending.push(() => releaseJob(db, queue.schema, job.id, SUSPECT_DELAY_SECONDS)));
    return 'handedBack';
  }
  const row = claimed;
  if (!row) {
    // A re-submitted or retried job of a unit that is already in the ledger (or cancelled): nothing to do.
    await queue.boss.complete(UNIT_QUEUE, job.id);
    return 'duplicates';
  }
  const giveBack = (reason: string, delay: number) => (): Promise<boolean> => handBack(db, queue.schema, runId, key, job.id, attemptId, reason, delay);
  // Held (its lease renewed by the heartbeat) from the claim on, while the run opens too.
  const lease = new AbortController();
  context.held.set(attemptId, { runId, unitKey: key, abort: lease });
  let runtime: RunRuntime;
  try {
    runtime = await runtimeFor(runId);
  } catch (error) {
    context.held.delete(attemptId);
    const message = error instanceof Error ? error.message : String(error);
    if (isConnectionError(error)) {
      context.pending.push(giveBack(`database lost opening the run: ${message}`, OUTAGE_DELAY_SECONDS));
      throw error;
    }
    await giveBack(`refused by worker ${context.holderOf(attemptId).workerId}: ${message}`, 0)().catch(() => context.pending.push(giveBack(`refused: ${message}`, 0)));
    throw new RunRefused(error);
  }
  const signal = AbortSignal.any([context.stopping, lease.signal]);
  const run = { ...runtime.run, signal };
  const ledger = new UnitLedger(db, { runId, unitKey: key, attemptId, seq: row.seq }, runtime.redact);
  runtime.ledgers.set(key, ledger);
  let unitContext: ReturnType<typeof createUnitContext> | undefined;
  try {
    // Inside the try: a unit missing from the stored inputs fails that unit, not the worker.
    const unit = runtime.unitOf(row);
    unitContext = createUnitContext(run, unit);
    const outcome = await runUnit(run, unit, runtime.services, unitContext);
    if (signal.aborted) throw signal.reason;
    const won = await ledger.commit(unitContext.calls, outcome.result);
    // Lost here (the database went away after the commit), the supervisor's unclaimed-job pass completes it.
    await queue.boss.complete(UNIT_QUEUE, job.id).catch(() => undefined);
    return won ? 'committed' : 'duplicates';
  } catch (error) {
    // Billed calls of an attempt that will not commit are kept apart (interrupted), never lost.
    await ledger.abandon(unitContext?.calls ?? []).catch(() => undefined);
    const message = error instanceof Error ? error.message : String(error);
    if (lease.signal.aborted) return 'handedBack';
    if (context.stopping.aborted) {
      context.log(`unit ${key} of run ${runId}: handed back (worker stopping; no attempt used)`);
      await giveBack('worker stopped before the unit finished', 0)().catch(() => context.pending.push(giveBack('worker stopped before the unit finished', 0)));
      return 'handedBack';
    }
    if (isConnectionError(error)) {
      context.log(`unit ${key} of run ${runId}: database lost mid-unit (${message}); handed back (no attempt used)`);
      context.pending.push(giveBack(`database lost mid-unit: ${message}`, OUTAGE_DELAY_SECONDS));
      return 'handedBack';
    }
    const fail = (): Promise<'retry' | 'failed' | undefined> => failUnit(db, queue.schema, runId, key, job.id, attemptId, message);
    const state = await fail().catch(() => {
      context.pending.push(fail);
      return undefined;
    });
    context.log(`unit ${key} of run ${runId} failed (attempt ${job.retryCount + 1}${state === 'failed' ? ', out of attempts' : ''}): ${message}`);
    return 'failed';
  } finally {
    context.held.delete(attemptId);
    runtime.ledgers.delete(key);
  }
}
