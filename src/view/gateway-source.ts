/**
 * What the Spend screen reads from a gateway data dir, read-only: the keys (budget, spent,
 * closed reason — never a hash or a secret) and the daily call ledgers aggregated per day,
 * model and tag, with every over-reservation event.
 */
import Database from 'better-sqlite3';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gatewayPaths } from '../gateway/data-dir.js';
import type { GatewayCallRecord } from '../gateway/ledger/gateway-record.js';
import { ledgerFiles } from '../gateway/ledger/gateway-index.js';
import { readJsonl } from '../ledger/jsonl-reader.js';

export interface KeyView {
  id: string;
  budget: number | null;
  spent: number;
  tags: Record<string, string>;
  createdAt: string;
  revoked: boolean;
  closed: string | null;
  overReservation: number;
  /** Tokens held by calls reserved and not yet settled in the live journal (a running gateway's in-flight calls). */
  reserved: number;
}

export interface SpendGroup {
  group: string;
  calls: number;
  tokens: number;
  missing: number;
  cost: number | null;
}

export interface GatewaySpend {
  dir: string;
  keys: KeyView[];
  byDay: SpendGroup[];
  byModel: SpendGroup[];
  byTag: SpendGroup[];
  overReservations: Array<{ ts: string; keyId: string; model: string; reserved: number | undefined; over: number }>;
  /** Ledger lines that could not be read (a torn last line after a crash, say). */
  unreadable: number;
}

export function readGatewaySpend(dataDir: string, cwd: string): GatewaySpend {
  const paths = gatewayPaths(dataDir, {}, cwd);
  const keys: KeyView[] = [];
  if (existsSync(paths.keys)) {
    const db = new Database(paths.keys, { readonly: true, fileMustExist: true });
    try {
      const columns = new Set((db.prepare('PRAGMA table_info(keys)').all() as Array<{ name: string }>).map((c) => c.name));
      const rows = db.prepare(`SELECT id, budget, tags, created_at, spent, revoked${columns.has('closed') ? ', closed' : ', NULL AS closed'}${columns.has('over_reservation') ? ', over_reservation' : ', 0 AS over_reservation'} FROM keys ORDER BY created_at, id`).all() as Array<{ id: string; budget: number | null; tags: string; created_at: string; spent: number; revoked: number; closed: string | null; over_reservation: number }>;
      const held = openReservations(paths.dir);
      for (const row of rows) keys.push({ id: row.id, budget: row.budget, spent: row.spent, tags: parseTags(row.tags), createdAt: row.created_at, revoked: row.revoked === 1, closed: row.closed, overReservation: row.over_reservation, reserved: held.get(row.id) ?? 0 });
    } finally {
      db.close();
    }
  }
  const groups = { day: new Map<string, SpendGroup>(), model: new Map<string, SpendGroup>(), tag: new Map<string, SpendGroup>() };
  const overReservations: GatewaySpend['overReservations'] = [];
  let unreadable = 0;
  for (const file of ledgerFiles(paths.ledger)) {
    const { records, skipped } = readJsonlTolerant(file);
    unreadable += skipped;
    for (const call of records) {
      add(groups.day, call.ts.slice(0, 10), call);
      add(groups.model, call.model, call);
      add(groups.tag, `${call.run_id} / ${call.case_id} / ${call.arm}`, call);
      if (call.over_reservation !== undefined && call.over_reservation > 0) overReservations.push({ ts: call.ts, keyId: call.key_id, model: call.model, reserved: call.reserved_tokens, over: call.over_reservation });
    }
  }
  const sorted = (map: Map<string, SpendGroup>): SpendGroup[] => [...map.values()].sort((a, b) => a.group.localeCompare(b.group));
  return { dir: paths.dir, keys, byDay: sorted(groups.day), byModel: sorted(groups.model), byTag: sorted(groups.tag), overReservations, unreadable };
}

function add(map: Map<string, SpendGroup>, group: string, call: GatewayCallRecord): void {
  let row = map.get(group);
  if (!row) {
    row = { group, calls: 0, tokens: 0, missing: 0, cost: null };
    map.set(group, row);
  }
  row.calls += 1;
  if (typeof call.total_tokens === 'number') row.tokens += call.total_tokens;
  if (call.usage_missing) row.missing += 1;
  if (typeof call.cost_usd === 'number') row.cost = (row.cost ?? 0) + call.cost_usd;
}

function parseTags(text: string): Record<string, string> {
  try {
    const value = JSON.parse(text) as unknown;
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, string>) : {};
  } catch {
    return {};
  }
}

function readJsonlTolerant(file: string): { records: GatewayCallRecord[]; skipped: number } {
  try {
    return { records: readJsonl<GatewayCallRecord>(file, { requireSchemaVersion: true }).records, skipped: 0 };
  } catch {
    return { records: [], skipped: 1 };
  }
}

/** Per key, the tokens of reservations in the newest journal generation that have no settlement yet. */
function openReservations(dir: string): Map<string, number> {
  const generations = readdirSync(dir).flatMap((name) => {
    const found = /^spend-(\d+)\.journal$/.exec(name)?.[1];
    return found === undefined ? [] : [Number(found)];
  });
  const held = new Map<string, number>();
  if (generations.length === 0) return held;
  let text: string;
  try {
    text = readFileSync(join(dir, `spend-${Math.max(...generations)}.journal`), 'utf8');
  } catch {
    return held;
  }
  const open = new Map<string, { key: string; tokens: number }>();
  for (const line of text.split('\n')) {
    let entry: { op?: unknown; call?: unknown; key?: unknown; tokens?: unknown };
    try {
      entry = JSON.parse(line) as typeof entry;
    } catch {
      continue;
    }
    if (typeof entry.call !== 'string') continue;
    if (entry.op === 'reserve' && typeof entry.key === 'string' && typeof entry.tokens === 'number') open.set(entry.call, { key: entry.key, tokens: entry.tokens });
    else if (entry.op === 'settle') open.delete(entry.call);
  }
  for (const { key, tokens } of open.values()) held.set(key, (held.get(key) ?? 0) + tokens);
  return held;
}
