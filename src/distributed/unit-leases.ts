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

const UNIT_COLUMNS = 'u.unit_key, u.seq, u.split, u.case_id, u.arm, u.epoch, u.state';

/** A unit one worker death away from the dead letters (at least one behind it) is a suspect. */
const SUSPECT = 'u.worker_deaths >= GREATEST(1, r.max_worker_deaths - 1)';

/** A claimed unit; `suspect`: one more death of a worker running it and it is failed. */
export type ClaimedUnit = UnitRow & { suspect: boolean };

/**
 * The unit of a fetched job, now held by this attempt; undefined when it is already committed
 * or cancelled (or dead-lettered as a poison unit: only `runs requeue --failed` gives it back).
 *
 * With `suspects: false` a suspect unit is not claimed — `{ suspect: deaths }`, the unit left
 * untouched. A worker runs one suspect at a time, so a poison unit's last death cannot be
 * pinned on a unit that shared workers with it: their counts rise together until both are
 * suspects, and from then on they never share a worker again. (A unit that lost one worker
 * with max 3 is not a suspect: a worker's crash re-queues its units to run as usual.)
 */
export async function claimUnit(
  db: Database,
  runId: string,
  unitKey: string,
  jobId: string,
  holder: Holder,
  suspects = true,
): Promise<ClaimedUnit | { suspect: number } | undefined> {
  const { rows } = await db.query<ClaimedUnit>(
    `UPDATE units u SET state = 'active', job_id = $3, worker_id = $4, attempt_id = $5, version = $6, started_at = now(),
            lease_until = now() + make_interval(secs => $7), attempts = u.attempts + 1
       FROM runs r
      WHERE r.run_id = u.run_id AND u.run_id = $1 AND u.unit_key = $2 AND u.state IN ('queued', 'active', 'failed')
        AND NOT (u.state = 'failed' AND u.worker_deaths >= r.max_worker_deaths) AND ($8 OR NOT (${SUSPECT}))
      RETURNING ${UNIT_COLUMNS}, ${SUSPECT} AS suspect`,
    [runId, unitKey, jobId, holder.workerId, holder.attemptId, holder.version, holder.leaseSeconds, suspects],
  );
  if (rows[0] || suspects) return rows[0];
  const open = await db.query<{ worker_deaths: number }>(
    `SELECT u.worker_deaths FROM units u JOIN runs r ON r.run_id = u.run_id
      WHERE u.run_id = $1 AND u.unit_key = $2 AND u.state IN ('queued', 'active', 'failed') AND ${SUSPECT}`,
    [runId, unitKey],
  );
  return open.rows[0] ? { suspect: open.rows[0].worker_deaths } : undefined;
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
  /** Units whose lease lapsed once too often (`runs.max_worker_deaths`): failed, with their last error. */
  deadLettered: Array<{ runId: string; unitKey: string; error: string }>;
}

/**
 * The supervisor's pass (any live worker or waiting submitter runs it; row locks make
 * concurrent passes safe): workers silent past their own --dead-after are marked dead, and
 * every unit whose lease lapsed — a dead worker's — goes back to the queue at once, without
 * using an attempt (the worker failed, not the unit). Each such lapse counts on the unit
 * (`worker_deaths`): at its run's `max_worker_deaths` the unit is a poison unit — it kills
 * every worker that takes it — and becomes `failed` instead (its job too), with a last error
 * saying so. A job fetched but never claimed for 10 s goes back too.
 */
export async function sweepLapsed(db: Database, jobSchema: string): Promise<SweepResult> {
  const dead = (
    await db.query<{ id: string }>(
      `UPDATE workers SET state = 'dead' WHERE state = 'live' AND last_beat_at < now() - make_interval(secs => dead_after_seconds) RETURNING id`,
    )
  ).rows.map((r) => r.id);
  // SET sees the row as it was: worker_id and worker_deaths below are the values before this pass.
  const { rows } = await db.query<{ id: string; failed: boolean; run_id: string | null; unit_key: string | null; error: string | null }>(
    `WITH lapsed AS (
       UPDATE units u SET
              state = CASE WHEN u.worker_deaths + 1 >= r.max_worker_deaths THEN 'failed' ELSE 'queued' END,
              last_error = CASE WHEN u.worker_deaths + 1 >= r.max_worker_deaths
                THEN 'worker died while running this unit ' || (u.worker_deaths + 1) || ' times: the last, ' || COALESCE(u.worker_id, '?')
                     || ', went silent past its --dead-after (killed, out of memory or crashed); not retried (run --max-worker-deaths '
                     || r.max_worker_deaths || '); once fixed: isobudget runs requeue ' || u.run_id || ' --failed --db URL'
                ELSE 'lease lapsed: worker ' || COALESCE(u.worker_id, '?') || ' went silent' END,
              worker_deaths = u.worker_deaths + 1,
              worker_id = NULL, attempt_id = NULL, lease_until = NULL, handbacks = u.handbacks + 1
         FROM runs r
        WHERE r.run_id = u.run_id AND u.state = 'active' AND (u.lease_until < now() OR u.worker_id IN (SELECT id FROM workers WHERE state <> 'live'))
        RETURNING u.job_id, u.run_id, u.unit_key, u.state = 'failed' AS failed, u.last_error
     ), unclaimed AS (
       SELECT j.id FROM ${jobSchema}.job j
        WHERE j.name = $1 AND j.state = 'active' AND j.started_on < now() - make_interval(secs => $2)
          AND NOT EXISTS (SELECT 1 FROM units u WHERE u.job_id = j.id AND u.state = 'active')
     ), poisoned AS (
       SELECT job_id, last_error FROM lapsed WHERE failed
     )
     UPDATE ${jobSchema}.job j SET
            state = CASE WHEN p.job_id IS NULL THEN 'retry' ELSE 'failed' END::${jobSchema}.job_state,
            started_on = CASE WHEN p.job_id IS NULL THEN NULL ELSE j.started_on END,
            completed_on = CASE WHEN p.job_id IS NULL THEN j.completed_on ELSE now() END,
            output = CASE WHEN p.job_id IS NULL THEN j.output ELSE jsonb_build_object('message', p.last_error) END,
            start_after = now()
       FROM (SELECT job_id AS id FROM lapsed UNION SELECT id FROM unclaimed) t LEFT JOIN poisoned p ON p.job_id = t.id
      WHERE j.name = $1 AND j.id = t.id AND (j.state = 'active' OR (p.job_id IS NOT NULL AND j.state < 'completed'))
      RETURNING j.id, p.job_id IS NOT NULL AS failed, (SELECT run_id FROM lapsed l WHERE l.job_id = j.id) AS run_id,
                (SELECT unit_key FROM lapsed l WHERE l.job_id = j.id) AS unit_key, p.last_error AS error`,
    [UNIT_QUEUE, UNCLAIMED_GRACE_SECONDS],
  );
  const deadLettered = rows.filter((r) => r.failed && r.run_id !== null && r.unit_key !== null).map((r) => ({ runId: r.run_id ?? '', unitKey: r.unit_key ?? '', error: r.error ?? '' }));
  for (const runId of new Set(deadLettered.map((d) => d.runId))) await notifyRun(db, runId);
  return { dead, requeued: rows.length - deadLettered.length, deadLettered };
}

/** A fetched job this worker will not run (a refusal, a lost connection before the claim): back to the queue, no attempt used. */
export async function releaseJob(db: Database, jobSchema: string, jobId: string, delaySeconds = 0): Promise<void> {
  await db.query(
    `UPDATE ${jobSchema}.job SET state = 'retry', started_on = NULL, start_after = now() + make_interval(secs => $3) WHERE name = $1 AND id = $2 AND state = 'active'`,
    [UNIT_QUEUE, jobId, delaySeconds],
  );
}
