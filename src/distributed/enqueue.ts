/**
 * Queueing a run's open units: one pg-boss job per unit that has none live, inserted in the
 * caller's transaction under the run row's lock (two submitters at once queue each unit
 * once), the job's id written on the unit — one live job per unit.
 *
 * Fair across runs: a job's pg-boss priority is minus its unit's position in the plan, and
 * pg-boss serves the highest priority first — so the workers take the first unit of every
 * run, then the second of every run, … (round-robin by run): a small run submitted behind a
 * large one is not queued behind all of it.
 */
import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { UNIT_QUEUE, type JobQueue, type UnitJob } from './jobs.js';

export interface EnqueueOptions {
  /** pg-boss's expiry of an active job (s): bounds a hung worker (heartbeats find a dead one sooner). */
  leaseSeconds: number;
  /** Attempts after the first for a unit that fails while running (default 3). */
  retryLimit?: number | undefined;
  /** Which open units get a job: `queued` (a re-submit, a lost job), `failed` (given new attempts and a fresh count of worker deaths), `cancelled`. */
  states: ReadonlyArray<'queued' | 'failed' | 'cancelled'>;
}

export async function enqueueOpen(client: pg.PoolClient, queue: JobQueue, runId: string, options: EnqueueOptions): Promise<{ enqueued: number; committed: number }> {
  await client.query('SELECT 1 FROM runs WHERE run_id = $1 FOR UPDATE', [runId]);
  const open = (await client.query<{ unit_key: string; seq: number }>(
    `SELECT u.unit_key, u.seq FROM units u WHERE u.run_id = $1 AND u.state = ANY($3::text[])
        AND NOT EXISTS (SELECT 1 FROM ${queue.schema}.job j WHERE j.name = $2 AND j.id = u.job_id AND j.state < 'completed')
      ORDER BY u.seq`,
    [runId, UNIT_QUEUE, options.states],
  )).rows;
  const jobs = open.map((u) => ({
    id: randomUUID(),
    name: UNIT_QUEUE,
    data: { run_id: runId, unit_key: u.unit_key } satisfies UnitJob,
    singletonKey: `${runId}/${u.unit_key}`,
    priority: -u.seq,
    expireInSeconds: options.leaseSeconds,
    retryLimit: options.retryLimit ?? 3,
    retryDelay: 0,
  }));
  const executor = { executeSql: (text: string, values: unknown[]) => client.query(text, values) };
  for (let i = 0; i < jobs.length; i += 1000) {
    const chunk = jobs.slice(i, i + 1000);
    await queue.boss.insert(chunk, { db: executor });
    await client.query(
      `UPDATE units u SET job_id = v.job_id, state = 'queued', worker_deaths = CASE WHEN u.state = 'failed' THEN 0 ELSE u.worker_deaths END FROM unnest($2::text[], $3::uuid[]) AS v(unit_key, job_id) WHERE u.run_id = $1 AND u.unit_key = v.unit_key`,
      [runId, chunk.map((j) => j.data.unit_key), chunk.map((j) => j.id)],
    );
  }
  const total = (await client.query<{ committed: number }>(`SELECT (count(*) FILTER (WHERE state = 'committed'))::int AS committed FROM units WHERE run_id = $1`, [runId])).rows[0];
  return { enqueued: jobs.length, committed: total?.committed ?? 0 };
}
