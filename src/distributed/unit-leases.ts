/**
 * Who holds a unit, and until when. A worker claims the unit of a job it fetched (its
 * attempt id, worker id, version and lease on the unit row), renews the leases of the units
 * it runs on every heartbeat, and gives each back in one of three ways:
 *
 * - `handBack`: the unit did not fail (a SIGTERM, a refusal, the database went away): the job
 *   goes back to the queue with `started_on` cleared, which is what keeps pg-boss from
 *   counting an attempt on the next fetch;
 * - `failUnit`: the unit failed while running: the job's attempt is used (pg-boss's retry),
 *   and a unit out of attempts becomes `failed` with its last error;
 * - the commit itself (unit-ledger.ts) makes it `committed`.
 *
 * Every write is conditional on the attempt id: a worker that lost its unit (declared dead,
 * its lease lapsed) cannot hand back or fail a job another worker now holds.
 */
import type { Database } from '../db/spec.js';
import { UNIT_QUEUE } from './jobs.js';
import { notifyRun } from './run-notifications.js';
import type { UnitRow } from './run-store.js';

export interface Holder {
  workerId: string;
  /** Unique per attempt; prefixes the attempt's call ids. */
  attemptId: string;
  /** isobudget version of the worker (recorded on the unit). */
  version: string;
  /** How long a lease lasts without renewal (s): the worker's --dead-after. */
  leaseSeconds: number;
}

/**
 * A job fetched but never claimed (its worker died between the fetch and the claim, two
 * statements apart) goes back after this long (s). A live worker claims within milliseconds;
 * one that takes longer only risks a second attempt, which the results' unique key keeps from
 * counting twice.
 */
const UNCLAIMED_GRACE_SECONDS = 10;

const UNIT_COLUMNS = 'unit_key, seq, split, case_id, arm, epoch, state';

/** The unit of a fetched job, now held by this attempt; undefined when it is already committed or cancelled. */
export async function claimUnit(db: Database, runId: string, unitKey: string, jobId: string, holder: Holder): Promise<UnitRow | undefined> {
  const { rows } = await db.query<UnitRow>(
    `UPDATE units SET state = 'active', job_id = $3, worker_id = $4, attempt_id = $5, version = $6, started_at = now(),
            lease_until = now() + make_interval(secs => $7), attempts = attempts + 1
      WHERE run_id = $1 AND unit_key = $2 AND state IN ('queued', 'active', 'failed') RETURNING ${UNIT_COLUMNS}`,
    [runId, unitKey, jobId, holder.workerId, holder.attemptId, holder.version, holder.leaseSeconds],
  );
  return rows[0];
}

/**
 * Renews the leases of the attempts this worker runs (and their jobs' pg-boss expiry by the
 * run's lease); returns the attempts it no longer holds (another worker took the unit over).
 */
export async function renewLeases(db: Database, jobSchema: string, workerId: string, attemptIds: readonly string[], leaseSeconds: number): Promise<string[]> {
  if (attemptIds.length === 0) return [];
  const { rows } = await db.query<{ attempt_id: string }>(
    `WITH held AS (
       UPDATE units SET lease_until = now() + make_interval(secs => $3)
        WHERE worker_id = $1 AND state = 'active' AND attempt_id = ANY($2::text[]) RETURNING attempt_id, job_id, run_id
     ), jobs AS (
       UPDATE ${jobSchema}.job j SET expire_in = (now() - j.started_on) + make_interval(secs => r.lease_seconds)
         FROM held h JOIN runs r ON r.run_id = h.run_id
        WHERE j.name = $4 AND j.id = h.job_id AND j.state = 'active'
     )
     SELECT attempt_id FROM held`,
    [workerId, attemptIds, leaseSeconds, UNIT_QUEUE],
  );
  const held = new Set(rows.map((r) => r.attempt_id));
  return attemptIds.filter((id) => !held.has(id));
}

/** The unit goes back to the queue without using an attempt, available after `delaySeconds`. */
export async function handBack(
  db: Database,
  jobSchema: string,
  runId: string,
  unitKey: string,
  jobId: string,
  attemptId: string,
  reason: string,
  delaySeconds = 0,
): Promise<boolean> {
  const { rows } = await db.query(
    `WITH u AS (
       UPDATE units SET state = 'queued', worker_id = NULL, attempt_id = NULL, lease_until = NULL, handbacks = handbacks + 1, last_error = $5
        WHERE run_id = $1 AND unit_key = $2 AND attempt_id = $3 AND state = 'active' RETURNING 1
     )
     UPDATE ${jobSchema}.job SET state = 'retry', started_on = NULL, start_after = now() + make_interval(secs => $6)
      WHERE name = $7 AND id = $4 AND state = 'active' AND EXISTS (SELECT 1 FROM u) RETURNING id`,
    [runId, unitKey, attemptId, jobId, reason.slice(0, 2000), delaySeconds, UNIT_QUEUE],
  );
  return rows.length > 0;
}

/**
 * The unit failed while running: one attempt used. Retried after a back-off that doubles per
 * attempt (1 s, 2 s, 4 s, … at most 60 s); out of attempts, the unit is `failed`.
 * Returns 'retry', 'failed', or undefined when this attempt no longer held the unit.
 */
export async function failUnit(
  db: Database,
  jobSchema: string,
  runId: string,
  unitKey: string,
  jobId: string,
  attemptId: string,
  error: string,
): Promise<'retry' | 'failed' | undefined> {
  const { rows } = await db.query<{ state: 'retry' | 'failed' }>(
    `WITH u AS (
       UPDATE units SET state = 'queued', worker_id = NULL, attempt_id = NULL, lease_until = NULL, last_error = $5
        WHERE run_id = $1 AND unit_key = $2 AND attempt_id = $3 AND state = 'active' RETURNING 1
     )
     UPDATE ${jobSchema}.job SET
        state = CASE WHEN retry_count < retry_limit THEN 'retry' ELSE 'failed' END::${jobSchema}.job_state,
        completed_on = CASE WHEN retry_count < retry_limit THEN NULL ELSE now() END,
        start_after = CASE WHEN retry_count < retry_limit THEN now() + make_interval(secs => LEAST(60, 2 ^ retry_count)) ELSE start_after END,
        output = jsonb_build_object('message', $5::text)
      WHERE name = $6 AND id = $4 AND state = 'active' AND EXISTS (SELECT 1 FROM u) RETURNING state::text AS state`,
    [runId, unitKey, attemptId, jobId, error.slice(0, 2000), UNIT_QUEUE],
  );
  const state = rows[0]?.state;
  if (state === 'failed') {
    await db.query(`UPDATE units SET state = 'failed' WHERE run_id = $1 AND unit_key = $2 AND state = 'queued'`, [runId, unitKey]);
    await notifyRun(db, runId);
  }
  return state;
}

export interface SweepResult {
  /** Workers found silent past their --dead-after (now marked dead). */
  dead: string[];
  /** Units whose lease lapsed, back in the queue. */
  requeued: number;
}

/**
 * The supervisor's pass (any live worker or waiting submitter runs it; row locks make
 * concurrent passes safe): workers silent past their own --dead-after are marked dead, and
 * every unit whose lease lapsed — a dead worker's — goes back to the queue at once, without
 * using an attempt. A job fetched but never claimed for 10 s goes back too.
 */
export async function sweepLapsed(db: Database, jobSchema: string): Promise<SweepResult> {
  const dead = (
    await db.query<{ id: string }>(
      `UPDATE workers SET state = 'dead' WHERE state = 'live' AND last_beat_at < now() - make_interval(secs => dead_after_seconds) RETURNING id`,
    )
  ).rows.map((r) => r.id);
  const { rows } = await db.query<{ id: string }>(
    `WITH lapsed AS (
       UPDATE units SET state = 'queued', last_error = 'lease lapsed: worker ' || COALESCE(worker_id, '?') || ' went silent',
              worker_id = NULL, attempt_id = NULL, lease_until = NULL, handbacks = handbacks + 1
        WHERE state = 'active' AND (lease_until < now() OR worker_id IN (SELECT id FROM workers WHERE state <> 'live'))
        RETURNING job_id
     ), unclaimed AS (
       SELECT j.id FROM ${jobSchema}.job j
        WHERE j.name = $1 AND j.state = 'active' AND j.started_on < now() - make_interval(secs => $2)
          AND NOT EXISTS (SELECT 1 FROM units u WHERE u.job_id = j.id AND u.state = 'active')
     )
     UPDATE ${jobSchema}.job SET state = 'retry', started_on = NULL, start_after = now()
      WHERE name = $1 AND state = 'active' AND (id IN (SELECT job_id FROM lapsed) OR id IN (SELECT id FROM unclaimed)) RETURNING id`,
    [UNIT_QUEUE, UNCLAIMED_GRACE_SECONDS],
  );
  return { dead, requeued: rows.length };
}

/** A fetched job this worker will not run (a refusal, a lost connection before the claim): back to the queue, no attempt used. */
export async function releaseJob(db: Database, jobSchema: string, jobId: string, delaySeconds = 0): Promise<void> {
  await db.query(
    `UPDATE ${jobSchema}.job SET state = 'retry', started_on = NULL, start_after = now() + make_interval(secs => $3) WHERE name = $1 AND id = $2 AND state = 'active'`,
    [UNIT_QUEUE, jobId, delaySeconds],
  );
}
