/**
 * SQLite index of a run's ledger, for queries. Always rebuilt from the JSONL (the source
 * of truth) into a temp file and renamed into place, so a crash never leaves half an index.
 */
import Database from 'better-sqlite3';
import { existsSync, renameSync, rmSync } from 'node:fs';
import { readJsonl } from './jsonl-reader.js';
import type { CallRecord, ResultRecord } from './records.js';
import type { RunPaths } from './run-dir.js';

const SCHEMA = `
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE calls (
  run_id TEXT NOT NULL, case_id TEXT NOT NULL, arm TEXT NOT NULL, n INTEGER NOT NULL,
  path INTEGER NOT NULL, paths INTEGER NOT NULL, epoch INTEGER NOT NULL, split TEXT NOT NULL,
  model TEXT NOT NULL, base_url TEXT NOT NULL, protocol TEXT NOT NULL, role TEXT NOT NULL,
  prompt_tokens INTEGER, completion_tokens INTEGER, total_tokens INTEGER,
  cached_tokens INTEGER, reasoning_tokens INTEGER, usage_missing INTEGER NOT NULL,
  max_tokens INTEGER NOT NULL, finish_reason TEXT NOT NULL, finish_reason_raw TEXT,
  latency_ms INTEGER NOT NULL, attempt INTEGER NOT NULL, status INTEGER, error TEXT,
  retried INTEGER NOT NULL, note TEXT, ts TEXT NOT NULL
);
CREATE TABLE results (
  run_id TEXT NOT NULL, case_id TEXT NOT NULL, arm TEXT NOT NULL, variant TEXT NOT NULL,
  n INTEGER NOT NULL, epoch INTEGER NOT NULL, split TEXT NOT NULL, category TEXT,
  passed INTEGER NOT NULL, passed_any INTEGER NOT NULL, passes INTEGER NOT NULL,
  selected_path INTEGER, judge_score REAL, prompt_tokens INTEGER, completion_tokens INTEGER,
  total_tokens INTEGER, calls_missing_usage INTEGER NOT NULL, calls INTEGER NOT NULL,
  retries INTEGER NOT NULL, budget INTEGER NOT NULL, budget_exhausted INTEGER NOT NULL,
  over_budget INTEGER NOT NULL, latency_ms INTEGER NOT NULL, ts TEXT NOT NULL, paths_json TEXT NOT NULL,
  PRIMARY KEY (split, case_id, arm, epoch)
);
CREATE INDEX calls_unit ON calls (split, case_id, arm, epoch);
CREATE INDEX results_arm ON results (arm, category);
`;

export interface IndexSummary {
  file: string;
  calls: number;
  results: number;
}

export function buildSqliteIndex(paths: RunPaths): IndexSummary {
  const temp = `${paths.index}.tmp-${process.pid}`;
  if (existsSync(temp)) rmSync(temp);
  const db = new Database(temp);
  try {
    db.pragma('journal_mode = OFF');
    db.pragma('synchronous = OFF');
    db.exec(SCHEMA);
    const calls = readJsonl<CallRecord>(paths.calls, { requireSchemaVersion: true }).records;
    const results = readJsonl<ResultRecord>(paths.results, { requireSchemaVersion: true }).records;
    const insertCall = db.prepare(`INSERT INTO calls VALUES (${Array(28).fill('?').join(',')})`);
    const insertResult = db.prepare(`INSERT OR IGNORE INTO results VALUES (${Array(25).fill('?').join(',')})`);
    const bool = (value: boolean): number => (value ? 1 : 0);
    db.transaction(() => {
      for (const c of calls) {
        insertCall.run(c.run_id, c.case_id, c.arm, c.n, c.path, c.paths, c.epoch, c.split, c.model, c.base_url, c.protocol, c.role,
          c.prompt_tokens ?? null, c.completion_tokens ?? null, c.total_tokens ?? null, c.cached_tokens ?? null, c.reasoning_tokens ?? null,
          bool(c.usage_missing), c.max_tokens, c.finish_reason, c.finish_reason_raw ?? null, c.latency_ms, c.attempt, c.status ?? null,
          c.error ?? null, bool(c.retried), c.note ?? null, c.ts);
      }
      for (const r of results) {
        insertResult.run(r.run_id, r.case_id, r.arm, r.variant, r.n, r.epoch, r.split, r.category ?? null, bool(r.passed), bool(r.passed_any),
          r.passes, r.selected_path ?? null, r.judge_score ?? null, r.prompt_tokens ?? null, r.completion_tokens ?? null, r.total_tokens ?? null,
          r.calls_missing_usage, r.calls, r.retries, r.budget, bool(r.budget_exhausted), bool(r.over_budget), r.latency_ms, r.ts, JSON.stringify(r.paths));
      }
      db.prepare('INSERT INTO meta VALUES (?, ?)').run('built_at', new Date().toISOString());
    })();
    db.close();
    renameSync(temp, paths.index);
    return { file: paths.index, calls: calls.length, results: results.length };
  } catch (error) {
    if (db.open) db.close();
    rmSync(temp, { force: true });
    throw error;
  }
}
