/**
 * Team reads: a run, or the audit's rows, straight from the team database in the shapes the
 * file readers produce (LoadedRun, AuditData) — so analysis, verdict, report, compare and
 * audit run unchanged on them. A run's call counts (and the audit's calls, per hour) are aggregates over `calls` (no row
 * leaves the server), which is what keeps `analyze --db` fast on millions of calls.
 */
import { join } from 'node:path';
import type { LoadedRun } from '../analysis/load-run.js';
import { taskOfResult } from '../audit/read-ledgers.js';
import type { AuditData } from '../audit/ledger-rows.js';
import type { Database } from '../db/spec.js';
import type { CallCounts, Manifest } from '../ledger/manifest.js';
import { OUTCOME_UNKNOWN } from '../ledger/call-intents.js';
import type { ResultRecord } from '../ledger/records.js';
import { requireRun } from './run-store.js';

/** `dir`: where the run's local copy would be (runs/<id>); history and outputs look there. */
export async function loadRunFromDatabase(db: Database, runId: string, runsDir: string): Promise<LoadedRun> {
  const row = await requireRun(db, runId);
  const [results, counts] = await Promise.all([
    db.query<{ record: ResultRecord }>('SELECT record FROM results WHERE run_id = $1 ORDER BY seq', [runId]),
    callCounts(db, runId),
  ]);
  // A cancelled run is, to the analysis, one that stopped before its end.
  const manifest: Manifest = { ...row.manifest, status: row.status === 'cancelled' ? 'interrupted' : row.status, calls: counts };
  return { dir: join(runsDir, runId), manifest, results: results.rows.map((r) => r.record) };
}

export async function callCounts(db: Database, runId: string): Promise<CallCounts> {
  const { rows } = await db.query<{ committed: string; spent_unused: string; outcome_unknown: string; spent_unused_tokens: string; outcome_unknown_max_tokens: string }>(
    `SELECT count(*) FILTER (WHERE state = 'committed') AS committed,
            count(*) FILTER (WHERE state <> 'committed') AS spent_unused,
            count(*) FILTER (WHERE state <> 'committed' AND record->>'note' = $2) AS outcome_unknown,
            COALESCE(sum(total_tokens) FILTER (WHERE state <> 'committed'), 0) AS spent_unused_tokens,
            COALESCE(sum((record->>'reserved_tokens')::bigint) FILTER (WHERE state <> 'committed' AND record->>'note' = $2), 0) AS outcome_unknown_max_tokens
       FROM calls WHERE run_id = $1`,
    [runId, OUTCOME_UNKNOWN],
  );
  const r = rows[0];
  if (!r) throw new Error('an aggregate without a row');
  return { committed: Number(r.committed), spent_unused: Number(r.spent_unused), outcome_unknown: Number(r.outcome_unknown), spent_unused_tokens: Number(r.spent_unused_tokens), outcome_unknown_max_tokens: Number(r.outcome_unknown_max_tokens) };
}

/** The audit's rows for [since, until] (ms): results of every run, and committed generate calls. */
export async function readAuditFromDatabase(db: Database, since: number, until: number): Promise<AuditData> {
  const window = [new Date(since).toISOString(), new Date(until).toISOString()];
  const [results, calls, runs, outside] = await Promise.all([
    db.query<{ record: ResultRecord; time: string }>('SELECT record, (EXTRACT(EPOCH FROM ts) * 1000)::float8 AS time FROM results WHERE ts BETWEEN $1 AND $2', window),
    // Summed per UTC hour in the database (periods are UTC weeks or months, so an hour never
    // straddles two): bounded memory at any number of calls, no JSONB record read.
    db.query<{ time: number; n: number; known: number; completion: number; outputs: number }>(
      `SELECT (EXTRACT(EPOCH FROM date_trunc('hour', ts, 'UTC')) * 1000)::float8 AS time, count(*)::int AS n,
              (count(*) FILTER (WHERE NOT usage_missing AND completion_tokens IS NOT NULL))::int AS known,
              COALESCE(sum(completion_tokens) FILTER (WHERE NOT usage_missing), 0)::float8 AS completion,
              COALESCE(sum(paths) FILTER (WHERE NOT usage_missing AND completion_tokens IS NOT NULL), 0)::float8 AS outputs
         FROM calls WHERE state = 'committed' AND role = 'generate' AND ts BETWEEN $1 AND $2 GROUP BY 1 ORDER BY 1`,
      window,
    ),
    db.query<{ n: number }>('SELECT count(*)::int AS n FROM runs'),
    db.query<{ n: number }>(`SELECT ((SELECT count(*) FROM results WHERE ts NOT BETWEEN $1 AND $2) + (SELECT count(*) FROM calls WHERE state = 'committed' AND role = 'generate' AND ts NOT BETWEEN $1 AND $2))::int AS n`, window),
  ]);
  return {
    tasks: results.rows.map((r) => taskOfResult(r.record, Number(r.time))),
    calls: calls.rows.map((c) => ({ time: Number(c.time), completion: c.known > 0 ? Number(c.completion) : undefined, outputs: Number(c.outputs), count: c.n })),
    runs: runs.rows[0]?.n ?? 0,
    gatewayFiles: 0,
    outside: outside.rows[0]?.n ?? 0,
  };
}
