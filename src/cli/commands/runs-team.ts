/**
 * `isobudget runs status|requeue|cancel ID --db URL`: seeing and steering one distributed run
 * (src/distributed/run-status.ts, run-control.ts).
 */
import { IsobudgetError } from '../../core/errors.js';
import { EXIT } from '../exit-codes.js';
import type { CliIO } from '../io.js';
import { requireTeamDatabase } from './team-db.js';

export const TEAM_RUN_ACTIONS = ['status', 'requeue', 'cancel'] as const;

export const TEAM_RUN_USAGE = `isobudget runs status ID --db URL [--json]     units by state, per worker, oldest active, leases, failed units and last errors, tokens so far, ETA
isobudget runs requeue ID --db URL [--failed]  queue the run's open units that have no job (--failed: and units out of attempts, with new attempts)
isobudget runs cancel ID --db URL              workers stop taking its units and abort those they run (their calls booked interrupted)`;

export async function teamRunAction(action: (typeof TEAM_RUN_ACTIONS)[number], rest: readonly string[], values: { db?: string | undefined; json?: boolean | undefined; failed?: boolean | undefined }, io: CliIO): Promise<number> {
  if (rest.length !== 1) throw new IsobudgetError('usage', `runs ${action}: pass exactly one run ID`, { hint: TEAM_RUN_USAGE });
  if (values.failed === true && action !== 'requeue') throw new IsobudgetError('usage', `runs ${action}: --failed goes with runs requeue`, { hint: TEAM_RUN_USAGE });
  const runId = rest[0] as string;
  const db = await requireTeamDatabase(values.db, io, `runs ${action}`);
  try {
    if (action === 'status') {
      const { renderRunStatus, runStatus } = await import('../../distributed/run-status.js');
      const status = await runStatus(db, runId);
      io.stdout.write(values.json ? `${JSON.stringify(status, null, 2)}\n` : renderRunStatus(status));
      return EXIT.ok;
    }
    const { openJobQueue } = await import('../../distributed/jobs.js');
    const queue = await openJobQueue(db, { supervise: false });
    try {
      const { cancelRun, requeueRun } = await import('../../distributed/run-control.js');
      if (action === 'requeue') {
        const done = await requeueRun(db, queue, runId, { failed: values.failed === true });
        io.stdout.write(`run ${runId}: ${done.enqueued} unit(s) queued, ${done.committed} already committed\n`);
      } else {
        const done = await cancelRun(db, queue, runId);
        io.stdout.write(`run ${runId}: cancelled; ${done.cancelled} open unit(s) cancelled, ${done.running} of them aborted at their workers' next heartbeat (calls in flight booked interrupted)\n`);
      }
      return EXIT.ok;
    } finally {
      await queue.stop().catch(() => undefined);
    }
  } finally {
    await db.end().catch(() => undefined);
  }
}
