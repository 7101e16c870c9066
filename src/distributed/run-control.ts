/**
 * Steering a distributed run: `runs requeue ID [--failed]` and `runs cancel ID`.
 *
 * - requeue: every open unit without a live job gets one (a job lost by hand, a cancelled
 *   run resumed); with `--failed`, units out of attempts too, with a fresh set of attempts.
 * - cancel: the run and its open units become `cancelled` in one transaction and their jobs
 *   are cancelled; a worker running one of its units finds the lease gone at its next beat,
 *   aborts it and books its calls interrupted (billed, never counted).
 */
import { inTransaction } from '../db/batch-insert.js';
import type { Database } from '../db/spec.js';
import { enqueueOpen } from './enqueue.js';
import { UNIT_QUEUE, type JobQueue } from './jobs.js';
import { requireRun } from './run-store.js';
import { notifyRun } from './run-notifications.js';

export async function requeueRun(db: Database, queue: JobQueue, runId: string, options: { failed: boolean }): Promise<{ enqueued: number; committed: number }> {
  const run = await requireRun(db, runId);
  return inTransaction(db, async (client) => {
    if (run.status === 'cancelled' || run.status === 'interrupted') await client.query(`UPDATE runs SET status = 'running', finished_at = NULL, updated_at = now() WHERE run_id = $1`, [runId]);
    return enqueueOpen(client, queue, runId, { leaseSeconds: run.lease_seconds, states: options.failed ? ['queued', 'failed', 'cancelled'] : ['queued', 'cancelled'] });
  });
}

export async function cancelRun(db: Database, queue: JobQueue, runId: string): Promise<{ cancelled: number; running: number }> {
  await requireRun(db, runId);
  return inTransaction(db, async (client) => {
    await client.query(`UPDATE runs SET status = 'cancelled', updated_at = now(), finished_at = now() WHERE run_id = $1 AND status = 'running'`, [runId]);
    const units = (await client.query<{ state: string }>(
      `UPDATE units u SET state = 'cancelled', lease_until = NULL FROM (SELECT unit_key, state AS before FROM units WHERE run_id = $1 AND state IN ('queued', 'active', 'failed') FOR UPDATE) b
        WHERE u.run_id = $1 AND u.unit_key = b.unit_key RETURNING b.before AS state`,
      [runId],
    )).rows;
    await client.query(`UPDATE ${queue.schema}.job SET state = 'cancelled', completed_on = now() WHERE name = $1 AND data->>'run_id' = $2 AND state < 'completed'`, [UNIT_QUEUE, runId]);
    await notifyRun(client, runId);
    return { cancelled: units.length, running: units.filter((u) => u.state === 'active').length };
  });
}
