/**
 * `isobudget worker --db URL [--concurrency N] [--until-idle]`: executes the units of
 * distributed runs, on any machine that has the project checked out (code files are checked
 * against the submitter's hashes before the first unit of a run).
 */
import { resolve } from 'node:path';
import { IsobudgetError } from '../../core/errors.js';
import { connectionFailure } from '../../db/connect.js';
import { isConnectionError, retryConnectionLoss } from '../../db/connection-errors.js';
import { openJobQueue } from '../../distributed/jobs.js';
import { runWorker } from '../../distributed/worker.js';
import { numberOption, parseCommandArgs } from '../args.js';
import { EXIT } from '../exit-codes.js';
import type { CommandSpec } from './spec.js';
import { DB_OPTION } from '../common-options.js';
import { TOOL_VERSION } from '../../version.js';
import { requireTeamDatabase } from './team-db.js';

const USAGE = `isobudget worker [--db URL] [--concurrency N] [--until-idle] [--root DIR] [--lease-check S] [--dead-after S] [--sim-latency-scale X]
  takes units of distributed runs (isobudget run --distributed) from the team database and commits each in one transaction
  example: isobudget worker --db postgres://ci@db:5432/isobudget --concurrency 8`;

export const workerCommand: CommandSpec = {
  summary: 'execute the units of distributed runs (isobudget run --distributed) from the team database',
  async run(argv, io) {
    const { values, positionals } = parseCommandArgs('worker', argv, {
      db: DB_OPTION,
      concurrency: { type: 'string', value: 'N', help: 'units in flight at once; calls within them follow the run\'s concurrency', fallback: '4', example: '8' },
      'until-idle': { type: 'boolean', help: 'exit once no unit is queued, retrying or running anywhere (CI, benches)' },
      root: { type: 'string', value: 'DIR', help: 'this machine\'s project root: the submitter\'s paths map here', fallback: 'the working directory', example: '/srv/ci/repo' },
      'sim-latency-scale': { type: 'string', value: 'X', help: 'multiply the in-process simulator\'s latencies (0 answers at once)', fallback: '1', example: '0' },
      'dead-after': { type: 'string', value: 'S', help: 'this worker beats every S/5 s; silent for S s, it is dead for the others and its units go back to the queue at once (no attempt used)', fallback: '30', example: '10' },
      'lease-check': { type: 'string', value: 'S', help: 'how often (s) expired leases (dead workers\' units) go back to the queue; one process per interval does it', fallback: '5', example: '1' },
    }, USAGE);
    const leaseCheck = numberOption('lease-check', values['lease-check']) ?? 5;
    if (!Number.isInteger(leaseCheck) || leaseCheck < 1) throw new IsobudgetError('usage', `--lease-check must be a whole number of seconds ≥ 1, got '${values['lease-check']}'`, { hint: USAGE });
    const deadAfter = numberOption('dead-after', values['dead-after']) ?? 30;
    if (!Number.isInteger(deadAfter) || deadAfter < 1) throw new IsobudgetError('usage', `--dead-after must be a whole number of seconds ≥ 1, got '${values['dead-after']}'`, { hint: USAGE });
    if (positionals.length > 0) throw new IsobudgetError('usage', `worker: unexpected argument '${positionals[0]}'`, { hint: USAGE });
    const concurrency = numberOption('concurrency', values.concurrency) ?? 4;
    if (!Number.isInteger(concurrency) || concurrency < 1) throw new IsobudgetError('usage', `--concurrency must be a whole number ≥ 1, got '${values.concurrency}'`, { hint: USAGE });
    const simLatencyScale = numberOption('sim-latency-scale', values['sim-latency-scale']);
    // A pool per worker: the unit lanes, the call intents of their calls, and the queue's own queries.
    // Every line a timestamp: an operator reads a worker's log next to the database's.
    const log = (line: string): void => void io.stderr.write(`${new Date().toISOString()} ${line}\n`);
    const db = await requireTeamDatabase(values.db, io, 'worker', concurrency * 2 + 4);
    try {
      // A full connection table (53300) or a restart while starting: waited out a while, then one line naming it.
      const queue = await retryConnectionLoss(() => openJobQueue(db, { maintenanceSeconds: leaseCheck }), { maxFailures: 12 }).catch((error: unknown) => {
        throw isConnectionError(error) ? connectionFailure(error, db.options.connectionString ?? '', db.options.max) : error;
      });
      try {
        const summary = await runWorker({
          db, queue, concurrency, untilIdle: values['until-idle'] === true, signal: io.signal, env: io.env,
          root: resolve(io.cwd, values.root ?? '.'),
          ...(simLatencyScale === undefined ? {} : { simLatencyScale }),
          deadAfterSeconds: deadAfter, version: TOOL_VERSION,
          onStart: (id) => log(`worker ${id} started: isobudget ${TOOL_VERSION}, pid ${process.pid}, concurrency ${concurrency}, dead-after ${deadAfter} s`),
          log,
          onEvent: (runId, message) => log(`run ${runId}: ${message}`),
        }).catch((error: unknown) => {
          throw isConnectionError(error) ? connectionFailure(error, db.options.connectionString ?? '', db.options.max) : error;
        });
        log(`worker: ${summary.committed} unit(s) committed, ${summary.duplicates} already done, ${summary.failed} failed, ${summary.handedBack} handed back`);
        return io.signal.aborted ? EXIT.interrupted : EXIT.ok;
      } finally {
        await queue.stop().catch(() => undefined);
      }
    } finally {
      await db.end().catch(() => undefined);
    }
  },
};
