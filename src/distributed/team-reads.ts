/**
 * Team reads: a run, or the audit's rows, straight from the team database in the shapes the
 * file readers produce (LoadedRun, AuditData) — so analysis, verdict, report, compare and
 * audit run unchanged on them. A run's call counts (and the audit's calls, per hour) come from
 * `call_totals` (call-totals.ts), never from the calls, and the audit's tasks are the results
 * summed per UTC hour and kind in SQL (weighted rows, `AuditTask.count`): `analyze --db` and
 * `audit --db` stay fast, in bounded memory, on millions of calls and results.
 */
import { join } from 'node:path';
import type { LoadedRun } from '../analysis/load-run.js';
import type { AuditData, AuditTask } from '../audit/ledger-rows.js';
import { inTransaction } from '../db/batch-insert.js';
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

/**
 * The results of one UTC hour and one kind, summed: what taskOfResult would keep of each,
 * apart wherever a task tells them apart (absent vs null budget, absent vs present tokens —
 * a JSON null counts as known and 0, as the files' reader has it — a cost that is no number).
 */
interface TaskGroup {
  hour: number;
  n: number;
  passed: boolean;
  split: string;
  budget: number | null;
  has_budget: boolean;
  has_tokens: boolean;
  priced: boolean;
  tasks: number;
  tokens: number;
  retries: number;
  cost_usd: number | null;
}

/**
 * One row per (hour, kind) whatever the number of results: the window applies to each result
 * before the grouping (results_ts, migration 0006), and the task's time is its hour's start —
 * periods are UTC weeks or months, so no hour straddles two.
 */
/** A record's numeric field as float8; anything else (a string, an object) as NULL — never a cast error in the middle of an audit. */
const NUMBER = (field: string): string => `CASE WHEN jsonb_typeof(record->'${field}') = 'number' THEN (record->>'${field}')::float8 END`;

const TASK_GROUPS = `
  SELECT (EXTRACT(EPOCH FROM date_trunc('hour', ts, 'UTC')) * 1000)::float8 AS hour, n, passed, split,
         record->'budget' AS budget, record ? 'budget' AS has_budget, record ? 'total_tokens' AS has_tokens, cost_usd IS NOT NULL AS priced,
         count(*)::float8 AS tasks, COALESCE(sum(${NUMBER('total_tokens')}), 0) AS tokens,
         COALESCE(sum(${NUMBER('retries')}), 0) AS retries, sum(cost_usd) AS cost_usd
    FROM results WHERE ts BETWEEN $1 AND $2
   GROUP BY 1, 2, 3, 4, 5, 6, 7, 8`;

/**
 * The groups in one transaction that plans them as a hash of the few groups (the planner,
 * multiplying the keys' distinct values, expects a group a row and would sort every row, record
 * and all, on disk) and compiles nothing (JIT cost 2.4 s of 5.9 at 1,000,000 results).
 */
function taskGroups(db: Database, window: unknown[]): Promise<{ rows: TaskGroup[] }> {
  return inTransaction(db, async (client) => {
    await client.query('SET LOCAL jit = off; SET LOCAL enable_sort = off');
    return client.query<TaskGroup>(TASK_GROUPS, window);
  });
}

function taskOfGroup(g: TaskGroup): AuditTask {
  return {
    time: Number(g.hour),
    source: 'run',
    tokens: g.has_tokens ? Number(g.tokens) : undefined,
    n: g.n,
    retries: Number(g.retries),
    passed: g.passed,
    budget: g.has_budget ? (g.budget as number) : undefined,
    split: g.split,
    costUsd: g.priced ? Number(g.cost_usd) : undefined,
    count: Number(g.tasks),
  };
}

/** The audit's rows for [since, until] (ms): results of every run, and committed generate calls. */
export async function readAuditFromDatabase(db: Database, since: number, until: number): Promise<AuditData> {
  const window = [new Date(since).toISOString(), new Date(until).toISOString()];
  const [results, calls, runs, outside] = await Promise.all([
    // Summed per UTC hour and kind in the database, as the calls are: bounded memory.
    taskGroups(db, window),
    // Summed per UTC hour in the database (periods are UTC weeks or months, so an hour never
    // straddles two), from call_totals: bounded memory and time at any number of calls.
    generateCallsPerHour(db, window[0] as string, window[1] as string),
    db.query<{ n: number }>('SELECT count(*)::int AS n FROM runs'),
    // Two index ranges (results_ts), not a scan of every result: NOT BETWEEN cannot use the index.
    db.query<{ n: number }>('SELECT ((SELECT count(*) FROM results WHERE ts < $1) + (SELECT count(*) FROM results WHERE ts > $2))::int AS n', window),
  ]);
  return {
    tasks: results.rows.map(taskOfGroup),
    calls: calls.hours.map((c) => ({ time: Number(c.time), completion: c.known > 0 ? Number(c.completion) : undefined, outputs: Number(c.outputs), count: c.n })),
    runs: runs.rows[0]?.n ?? 0,
    gatewayFiles: 0,
    outside: (outside.rows[0]?.n ?? 0) + calls.outside,
  };
}
