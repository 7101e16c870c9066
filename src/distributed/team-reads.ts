/**
 * Team reads: a run, or the audit's rows, straight from the team database in the shapes the
 * file readers produce (LoadedRun, AuditData) — so analysis, verdict, report, compare and
 * audit run unchanged on them. A run's call counts (and the audit's calls, per hour) come from
 * `call_totals` (call-totals.ts), never from the calls: `analyze --db` and `audit --db` stay
 * fast, in bounded memory, on millions of calls.
 */
import { join } from 'node:path';
import type { LoadedRun } from '../analysis/load-run.js';
import { taskOfResult } from '../audit/read-ledgers.js';
import type { AuditData } from '../audit/ledger-rows.js';
import type { Database } from '../db/spec.js';
import type { Manifest } from '../ledger/manifest.js';
import type { ResultRecord } from '../ledger/records.js';
import { callCounts, generateCallsPerHour } from './call-totals.js';
import { requireRun, type RunRow } from './run-store.js';

/** `dir`: where the run's local copy would be (runs/<id>); history and outputs look there. */
export async function loadRunFromDatabase(db: Database, runId: string, runsDir: string): Promise<LoadedRun> {
  const row = await requireRun(db, runId);
  const [results, counts] = await Promise.all([
    db.query<{ record: ResultRecord }>('SELECT record FROM results WHERE run_id = $1 ORDER BY seq', [runId]),
    callCounts(db, runId),
  ]);
  // A cancelled run is, to the analysis, one that stopped before its end.
  const manifest: Manifest = { ...row.manifest, status: row.status === 'cancelled' ? 'interrupted' : row.status, calls: counts };
  return { dir: join(runsDir, runId), manifest, results: results.rows.map((r) => r.record), integrity: committedCallsMismatch(row, counts.committed) };
}

/**
 * The ledger cross-check of a team run (as calls.jsonl against the manifest for a run's files):
 * a complete run's calls were counted from the calls themselves when it finished
 * (materialize.ts); the totals read now must say as many committed calls. Calls committed,
 * deleted or edited since — or totals that no longer follow the calls — fail here.
 */
function committedCallsMismatch(row: RunRow, committed: number): string | undefined {
  const counted = row.status === 'complete' && row.finished_at !== null ? row.manifest.calls?.committed : undefined;
  if (counted === undefined || counted === committed) return undefined;
  return `the team database holds ${committed} committed calls of run ${row.run_id}, ${counted} when it finished`;
}

/** What taskOfResult reads of a result; cost_usd is the record's when a number, else null (ledger-rows.ts). */
interface TaskRow {
  total_tokens: number;
  has_tokens: boolean;
  n: number;
  retries: number;
  passed: boolean;
  budget: number;
  has_budget: boolean;
  split: string;
  cost_usd: number | null;
  time: number;
}

function taskFields(r: TaskRow): ResultRecord {
  const fields: Partial<ResultRecord> = { n: r.n, retries: r.retries, passed: r.passed, split: r.split as ResultRecord['split'], ...(r.cost_usd === null ? {} : { cost_usd: r.cost_usd }) };
  if (r.has_tokens) fields.total_tokens = r.total_tokens;
  if (r.has_budget) fields.budget = r.budget;
  return fields as ResultRecord;
}

/** The audit's rows for [since, until] (ms): results of every run, and committed generate calls. */
export async function readAuditFromDatabase(db: Database, since: number, until: number): Promise<AuditData> {
  const window = [new Date(since).toISOString(), new Date(until).toISOString()];
  const [results, calls, runs, outside] = await Promise.all([
    // Only what a task keeps (taskOfResult), not whole records: half the memory. Absent and
    // null stay apart where the task tells them apart. Still a row per result (README).
    db.query<TaskRow>(
      `SELECT record->'total_tokens' AS total_tokens, record ? 'total_tokens' AS has_tokens, n, record->'retries' AS retries, passed,
              record->'budget' AS budget, record ? 'budget' AS has_budget, split, cost_usd, (EXTRACT(EPOCH FROM ts) * 1000)::float8 AS time
         FROM results WHERE ts BETWEEN $1 AND $2`,
      window,
    ),
    // Summed per UTC hour in the database (periods are UTC weeks or months, so an hour never
    // straddles two), from call_totals: bounded memory and time at any number of calls.
    generateCallsPerHour(db, window[0] as string, window[1] as string),
    db.query<{ n: number }>('SELECT count(*)::int AS n FROM runs'),
    db.query<{ n: number }>('SELECT count(*)::int AS n FROM results WHERE ts NOT BETWEEN $1 AND $2', window),
  ]);
  return {
    tasks: results.rows.map((r) => taskOfResult(taskFields(r), Number(r.time))),
    calls: calls.hours.map((c) => ({ time: Number(c.time), completion: c.known > 0 ? Number(c.completion) : undefined, outputs: Number(c.outputs), count: c.n })),
    runs: runs.rows[0]?.n ?? 0,
    gatewayFiles: 0,
    outside: (outside.rows[0]?.n ?? 0) + calls.outside,
  };
}
