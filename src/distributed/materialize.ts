/**
 * The run directory of a distributed run, written from the database once its last unit is
 * committed: results.jsonl in plan order, calls.jsonl (committed calls), interrupted-calls.jsonl
 * (billed attempts that did not commit, outcome-unknown intents included), and the manifest —
 * the same files an embedded run leaves, so analyze, report, compare and audit read them as is.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import type { Database } from '../db/spec.js';
import { countSpentUnused, emptyCallCounts, type Manifest } from '../ledger/manifest.js';
import type { CallRecord, ResultRecord } from '../ledger/records.js';
import { runPaths, writeJsonAtomic } from '../ledger/run-dir.js';
import { compactCallTotals } from './call-totals.js';
import { finishRunRow, requireRun } from './run-store.js';

/** Attempts still `in_flight` once every unit committed belong to dead workers: interrupted. */
export async function sweepInFlight(db: Database, runId: string): Promise<void> {
  await db.query(`UPDATE calls SET state = 'interrupted' WHERE run_id = $1 AND state = 'in_flight'`, [runId]);
}

export async function materializeRun(db: Database, runId: string, dir: string, status: Manifest['status']): Promise<Manifest> {
  const row = await requireRun(db, runId);
  if (status === 'complete') await sweepInFlight(db, runId);
  mkdirSync(dir, { recursive: true });
  const paths = runPaths(dir);
  const results = (await db.query<{ record: ResultRecord }>('SELECT record FROM results WHERE run_id = $1 ORDER BY seq', [runId])).rows.map((r) => r.record);
  const calls = (await db.query<{ record: CallRecord; state: string }>(
    `SELECT c.record, c.state FROM calls c LEFT JOIN units u ON u.run_id = c.run_id AND u.unit_key = c.unit_key WHERE c.run_id = $1 AND c.state <> 'in_flight' ORDER BY u.seq, c.id`,
    [runId],
  )).rows;
  const committed = calls.filter((c) => c.state === 'committed').map((c) => c.record);
  const interrupted = calls.filter((c) => c.state === 'interrupted').map((c) => c.record);
  const lines = (records: readonly unknown[]): string => records.map((r) => `${JSON.stringify(r)}\n`).join('');
  writeFileSync(paths.results, lines(results));
  writeFileSync(paths.calls, lines(committed));
  if (interrupted.length > 0) writeFileSync(paths.interrupted, lines(interrupted));
  const counts = emptyCallCounts();
  counts.committed = committed.length;
  countSpentUnused(counts, interrupted);
  const manifest: Manifest = { ...row.manifest, status, updated_at: new Date().toISOString(), calls: counts };
  writeJsonAtomic(paths.manifest, manifest);
  await finishRunRow(db, runId, status, manifest);
  await compactCallTotals(db, runId);
  return manifest;
}
