/**
 * `isobudget run EXPERIMENT.yaml --db URL --distributed [--detach]` and `isobudget runs wait
 * ID --db URL`: submit the units as jobs, wait for the workers with the usual progress
 * display, then write runs/<id>/ from the database and print the table and verdict.
 */
import { join } from 'node:path';
import type { SplitName } from '../../config/types.js';
import type { Database } from '../../db/spec.js';
import { retryConnectionLoss } from '../../db/connection-errors.js';
import { materializeRun } from '../../distributed/materialize.js';
import { openJobQueue, type JobQueue } from '../../distributed/jobs.js';
import { requireRun } from '../../distributed/run-store.js';
import { submitRun } from '../../distributed/submit.js';
import { notFinished, waitForRun } from '../../distributed/wait.js';
import { EXIT } from '../exit-codes.js';
import type { CliIO } from '../io.js';
import { finishRun, type FinishOptions } from './finish-run.js';

export interface DistributedRunOptions {
  configPath: string;
  outDir: string;
  split?: SplitName;
  runId?: string;
  allowOverlap?: boolean;
  pricingFile?: string;
  leaseSeconds: number;
  /** Deaths of workers holding one unit that make it failed (default: the run's, else 3). */
  maxWorkerDeaths?: number;
  detach: boolean;
  quiet: boolean;
  finish: FinishOptions;
}

export async function runDistributed(db: Database, io: CliIO, options: DistributedRunOptions): Promise<number> {
  const queue = await openJobQueue(db);
  try {
    const log = (line: string): void => void io.stderr.write(`${new Date().toISOString()} ${line}\n`);
    // Submission is one transaction and idempotent: a database lost mid-way is waited out and the submission tried again.
    const submitted = await retryConnectionLoss(() => submitRun({
      db, queue, configPath: options.configPath, root: io.cwd, outDir: options.outDir, leaseSeconds: options.leaseSeconds,
      ...(options.split === undefined ? {} : { split: options.split }),
      ...(options.runId === undefined ? {} : { runId: options.runId }),
      ...(options.allowOverlap ? { allowOverlap: true } : {}),
      ...(options.pricingFile === undefined ? {} : { pricingFile: options.pricingFile }),
      ...(options.maxWorkerDeaths === undefined ? {} : { maxWorkerDeaths: options.maxWorkerDeaths }),
    }), { onLost: (error, n) => n === 1 && log(`submit: database unreachable (${(error as { code?: string }).code ?? String(error)}); retrying with back-off`) });
    if (!options.quiet) io.stderr.write(`run ${submitted.runId}: ${submitted.manifest.units_planned} units, ${submitted.enqueued} queued${submitted.committed > 0 ? `, ${submitted.committed} already committed` : ''}; workers: isobudget worker --db URL\n`);
    if (options.detach) {
      io.stdout.write(`${submitted.runId}\n`);
      return EXIT.ok;
    }
    return await waitAndFinish(db, queue, io, submitted.runId, options.outDir, options.quiet, options.finish);
  } finally {
    await queue.stop().catch(() => undefined);
  }
}

export async function waitForDistributedRun(db: Database, io: CliIO, runId: string, outDir: string, quiet: boolean, finish: FinishOptions): Promise<number> {
  await requireRun(db, runId);
  const queue = await openJobQueue(db);
  try {
    return await waitAndFinish(db, queue, io, runId, outDir, quiet, finish);
  } finally {
    await queue.stop().catch(() => undefined);
  }
}

async function waitAndFinish(db: Database, queue: JobQueue, io: CliIO, runId: string, outDir: string, quiet: boolean, finish: FinishOptions): Promise<number> {
  const outcome = await waitForRun({
    db, queue, runId, ...(io.signal ? { signal: io.signal } : {}),
    log: (line) => io.stderr.write(`${new Date().toISOString()} ${line}\n`),
    ...(quiet ? {} : { progress: { write: (t: string) => io.stderr.write(t), isTTY: io.stderr.isTTY === true, ...(io.stderr.redraw ? { redraw: io.stderr.redraw } : {}), get columns() { return io.stderr.columns; } } }),
  });
  const dir = join(outDir, runId);
  if (!outcome.done) {
    if (outcome.reason === 'interrupted') {
      io.stderr.write(`stopped waiting; the workers go on. Later: isobudget runs wait ${runId} --db URL\n`);
      return EXIT.interrupted;
    }
    await retryConnectionLoss(() => materializeRun(db, runId, dir, 'interrupted'));
    throw notFinished(runId, outcome.reason);
  }
  await retryConnectionLoss(() => materializeRun(db, runId, dir, 'complete'));
  return finishRun(dir, io, finish);
}
