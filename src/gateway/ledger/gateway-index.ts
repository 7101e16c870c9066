/**
 * SQLite index of the gateway's daily ledger files, for queries (`gateway ledger index`).
 * Like the run index it is always rebuilt from the JSONL — the source of truth — into a
 * temp file renamed into place, so a crash never leaves half an index.
 */
import Database from 'better-sqlite3';
import { existsSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { readJsonl } from '../../ledger/jsonl-reader.js';
import { callCostUsd } from '../../pricing/call-cost.js';
import type { PriceTable } from '../../pricing/price-table.js';
import type { GatewayCallRecord } from './gateway-record.js';

const SCHEMA = `
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE calls (
  day TEXT NOT NULL, ts TEXT NOT NULL, key_id TEXT NOT NULL, session_id TEXT, endpoint TEXT NOT NULL,
  run_id TEXT NOT NULL, case_id TEXT NOT NULL, arm TEXT NOT NULL, n INTEGER NOT NULL, path INTEGER NOT NULL,
  epoch INTEGER NOT NULL, split TEXT NOT NULL, model TEXT NOT NULL, base_url TEXT NOT NULL, protocol TEXT NOT NULL,
  role TEXT NOT NULL, stream INTEGER NOT NULL, prompt_tokens INTEGER, completion_tokens INTEGER, total_tokens INTEGER,
  cached_tokens INTEGER, reasoning_tokens INTEGER, usage_missing INTEGER NOT NULL, max_tokens INTEGER NOT NULL,
  requested_max_tokens INTEGER, finish_reason TEXT NOT NULL, finish_reason_raw TEXT, latency_ms INTEGER NOT NULL,
  ttfb_ms INTEGER, gateway_ms REAL, attempt INTEGER NOT NULL, status INTEGER, error TEXT, note TEXT, tags TEXT NOT NULL,
  call_id TEXT, reserved_tokens INTEGER, booked_tokens INTEGER, over_reservation INTEGER, outcome TEXT,
  cost_usd REAL
);
CREATE INDEX calls_day ON calls (day);
CREATE INDEX calls_run ON calls (run_id, case_id, arm);
CREATE INDEX calls_session ON calls (session_id);
CREATE INDEX calls_key ON calls (key_id);
`;

export function ledgerFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).filter((name) => /^calls-\d{4}-\d{2}-\d{2}\.jsonl$/.test(name)).sort().map((name) => join(dir, name));
}

/**
 * `prices`: costs records that carry none (written before prices, or with no price then);
 * a recorded `cost_usd` is kept as it was billed.
 */
export function buildGatewayIndex(dir: string, prices?: PriceTable): { file: string; calls: number; days: number } {
  const file = join(dir, 'index.sqlite');
  const temp = `${file}.tmp-${process.pid}`;
  rmSync(temp, { force: true });
  const db = new Database(temp);
  try {
    db.pragma('journal_mode = OFF');
    db.exec(SCHEMA);
    const insert = db.prepare(`INSERT INTO calls VALUES (${Array(41).fill('?').join(',')})`);
    const files = ledgerFiles(dir);
    let calls = 0;
    db.transaction(() => {
      for (const ledger of files) {
        for (const c of readJsonl<GatewayCallRecord>(ledger, { requireSchemaVersion: true }).records) {
          insert.run(c.ts.slice(0, 10), c.ts, c.key_id, c.session_id ?? null, c.endpoint, c.run_id, c.case_id, c.arm, c.n, c.path, c.epoch, c.split,
            c.model, c.base_url, c.protocol, c.role, c.stream ? 1 : 0, c.prompt_tokens ?? null, c.completion_tokens ?? null, c.total_tokens ?? null,
            c.cached_tokens ?? null, c.reasoning_tokens ?? null, c.usage_missing ? 1 : 0, c.max_tokens, c.requested_max_tokens ?? null,
            c.finish_reason, c.finish_reason_raw ?? null, c.latency_ms, c.ttfb_ms ?? null, c.gateway_ms ?? null, c.attempt, c.status ?? null, c.error ?? null, c.note ?? null,
            JSON.stringify(c.tags ?? {}), c.call_id ?? null, c.reserved_tokens ?? null, c.booked_tokens ?? null, c.over_reservation ?? null, c.outcome ?? null,
            typeof c.cost_usd === 'number' ? c.cost_usd : prices ? callCostUsd(c, prices) : null);
          calls += 1;
        }
      }
      db.prepare('INSERT INTO meta VALUES (?, ?)').run('built_at', new Date().toISOString());
    })();
    db.close();
    renameSync(temp, file);
    return { file, calls, days: files.length };
  } catch (error) {
    if (db.open) db.close();
    rmSync(temp, { force: true });
    throw error;
  }
}
