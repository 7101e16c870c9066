/**
 * The governance store in one SQLite file (better-sqlite3, WAL). Each ChangeSet is one
 * `BEGIN IMMEDIATE` transaction: the write lock is taken before the optimistic checks are
 * read, so two processes cannot both pass a check, and a process killed mid-write leaves
 * the last committed state (SQLite rolls the WAL back on the next open).
 */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { requireProvenance } from '../provenance.js';
import { MEMORY_TYPES, type MemoryRecord } from '../record.js';
import { MIGRATIONS, type Migration } from './migrations.js';
import type { GateLayerResult, GateRun, ReviewDecision, ReviewItem, ReviewStatus, TestSplitUse } from './records.js';
import { StoreConflictError, type ChangeSet, type MemoryStore, type RecordFilter, type StoredVersion } from './spec.js';

export interface SqliteStoreOptions {
  /** How long a writer waits for another's lock before failing (ms). */
  busyTimeoutMs?: number;
  /** Called inside the write transaction after every row is written, before COMMIT (crash tests). */
  beforeCommit?: () => void;
  /** Migrations to apply (default: all shipped). */
  migrations?: readonly Migration[];
}

type Row = Record<string, unknown>;
const text = (row: Row | undefined, key: string): string => String(row?.[key] ?? '');

export class SqliteMemoryStore implements MemoryStore {
  readonly file: string;
  private readonly db: Database.Database;
  private readonly beforeCommit: (() => void) | undefined;

  constructor(file: string, options: SqliteStoreOptions = {}) {
    this.file = file;
    if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
    this.db = new Database(file);
    this.db.pragma(`busy_timeout = ${options.busyTimeoutMs ?? 15_000}`);
    this.db.pragma('journal_mode = WAL');
    // FULL: a committed decision survives power loss too, not only a killed process.
    this.db.pragma('synchronous = FULL');
    this.db.pragma('foreign_keys = ON');
    this.beforeCommit = options.beforeCommit;
    this.migrate(options.migrations ?? MIGRATIONS);
  }

  /** Applied migration versions, oldest first. */
  migrationVersions(): number[] {
    return (this.db.prepare('SELECT version FROM schema_migrations ORDER BY version').all() as Row[]).map((r) => Number(r['version']));
  }

  private migrate(migrations: readonly Migration[]): void {
    // An up-to-date store is opened without taking the write lock, so readers never wait
    // behind a writer (or a writer that died holding the lock until SQLite notices).
    const hasTable = this.db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'").get() !== undefined;
    if (hasTable) {
      const applied = new Set(this.migrationVersions());
      if (migrations.every((m) => applied.has(m.version))) return;
    }
    // Re-read inside the lock: two processes opening a new file must not both migrate.
    this.db.transaction(() => {
      this.db.exec('CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)');
      const applied = new Set(this.migrationVersions());
      for (const migration of migrations) {
        if (applied.has(migration.version)) continue;
        this.db.exec(migration.sql);
        this.db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)').run(migration.version, migration.name, new Date().toISOString());
      }
    }).immediate();
  }

  async commit(changes: ChangeSet): Promise<void> {
    for (const { record } of changes.records ?? []) validateRecord(record);
    this.db.transaction(() => this.apply(changes)).immediate();
  }

  private apply(changes: ChangeSet): void {
    const db = this.db;
    for (const { record, diff } of changes.records ?? []) {
      const head = db.prepare('SELECT head_version FROM memory_records WHERE memory_id = ?').get(record.memory_id) as Row | undefined;
      const current = head === undefined ? 0 : Number(head['head_version']);
      if (current !== record.version - 1) throw new StoreConflictError(`${record.memory_id}: expected head version ${record.version - 1}, found ${current}`);
      const columns = [record.type, record.status, record.subject, record.candidate_id, record.updated_at, record.memory_id] as const;
      if (current === 0) db.prepare('INSERT INTO memory_records (head_version, type, status, subject, candidate_id, updated_at, memory_id) VALUES (1, ?, ?, ?, ?, ?, ?)').run(...columns);
      else db.prepare('UPDATE memory_records SET head_version = head_version + 1, type = ?, status = ?, subject = ?, candidate_id = ?, updated_at = ? WHERE memory_id = ?').run(...columns);
      db.prepare('INSERT INTO memory_versions (memory_id, version, body, changelog, diff, created_at) VALUES (?, ?, ?, ?, ?, ?)').run(record.memory_id, record.version, JSON.stringify(record), record.changelog, diff, record.updated_at);
    }
    for (const { gate, expected } of changes.gates ?? []) {
      const row = db.prepare('SELECT status FROM gates WHERE gate_id = ?').get(gate.gate_id) as Row | undefined;
      if ((row === undefined ? null : text(row, 'status')) !== expected) throw new StoreConflictError(`gate ${gate.gate_id}: expected status ${expected ?? '(new)'}, found ${row === undefined ? '(none)' : text(row, 'status')}`);
      db.prepare('INSERT INTO gates (gate_id, status, candidate_id, body, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (gate_id) DO UPDATE SET status = excluded.status, candidate_id = excluded.candidate_id, body = excluded.body, updated_at = excluded.updated_at')
        .run(gate.gate_id, gate.status, gate.candidate_id, JSON.stringify(gate), gate.created_at, gate.updated_at);
    }
    for (const layer of changes.layers ?? []) {
      db.prepare('INSERT INTO gate_layers (gate_id, layer, name, status, body, recorded_at) VALUES (?, ?, ?, ?, ?, ?)').run(layer.gate_id, layer.layer, layer.name, layer.status, JSON.stringify(layer), layer.recorded_at);
    }
    for (const use of changes.testUses ?? []) {
      db.prepare('INSERT INTO test_split_uses (dataset_sha256, run_id, body, used_at) VALUES (?, ?, ?, ?) ON CONFLICT (run_id) DO NOTHING').run(use.dataset_sha256, use.run_id, JSON.stringify(use), use.used_at);
    }
    for (const { item, expected } of changes.reviewItems ?? []) {
      const row = db.prepare('SELECT status FROM review_items WHERE review_id = ?').get(item.review_id) as Row | undefined;
      if ((row === undefined ? null : text(row, 'status')) !== expected) throw new StoreConflictError(`review ${item.review_id}: expected status ${expected ?? '(new)'}, found ${row === undefined ? '(none)' : text(row, 'status')}`);
      db.prepare('INSERT INTO review_items (review_id, kind, status, body, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (review_id) DO UPDATE SET status = excluded.status, body = excluded.body, updated_at = excluded.updated_at')
        .run(item.review_id, item.kind, item.status, JSON.stringify(item), item.created_at, item.updated_at);
    }
    for (const decision of changes.decisions ?? []) {
      db.prepare('INSERT INTO review_decisions (review_id, decision, reviewer, note, decided_at) VALUES (?, ?, ?, ?, ?)').run(decision.review_id, decision.decision, decision.reviewer, decision.note, decision.decided_at);
    }
    for (const [key, value] of Object.entries(changes.settings ?? {})) {
      db.prepare('INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value').run(key, value);
    }
    this.beforeCommit?.();
  }

  async getRecord(memoryId: string): Promise<MemoryRecord | undefined> {
    const row = this.db.prepare('SELECT v.body FROM memory_records r JOIN memory_versions v ON v.memory_id = r.memory_id AND v.version = r.head_version WHERE r.memory_id = ?').get(memoryId) as Row | undefined;
    return row === undefined ? undefined : (JSON.parse(text(row, 'body')) as MemoryRecord);
  }

  async listRecords(filter: RecordFilter = {}): Promise<MemoryRecord[]> {
    const where: string[] = [];
    const params: string[] = [];
    const within = (column: string, values: readonly string[] | undefined): void => {
      if (values === undefined) return;
      where.push(values.length === 0 ? '0' : `r.${column} IN (${values.map(() => '?').join(', ')})`);
      params.push(...values);
    };
    within('type', filter.types);
    within('status', filter.statuses);
    within('candidate_id', filter.candidateId === undefined ? undefined : [filter.candidateId]);
    within('subject', filter.subject === undefined ? undefined : [filter.subject]);
    const sql = `SELECT v.body FROM memory_records r JOIN memory_versions v ON v.memory_id = r.memory_id AND v.version = r.head_version${where.length ? ` WHERE ${where.join(' AND ')}` : ''} ORDER BY r.memory_id`;
    return (this.db.prepare(sql).all(...params) as Row[]).map((row) => JSON.parse(text(row, 'body')) as MemoryRecord);
  }

  async listVersions(memoryId: string): Promise<StoredVersion[]> {
    const rows = this.db.prepare('SELECT body, diff, created_at FROM memory_versions WHERE memory_id = ? ORDER BY version').all(memoryId) as Row[];
    return rows.map((row) => ({ record: JSON.parse(text(row, 'body')) as MemoryRecord, diff: row['diff'] === null ? null : text(row, 'diff'), created_at: text(row, 'created_at') }));
  }

  async getGate(gateId: string): Promise<GateRun | undefined> {
    const row = this.db.prepare('SELECT body FROM gates WHERE gate_id = ?').get(gateId) as Row | undefined;
    return row === undefined ? undefined : (JSON.parse(text(row, 'body')) as GateRun);
  }

  async listGates(): Promise<GateRun[]> {
    return this.bodies<GateRun>('SELECT body FROM gates ORDER BY gate_id');
  }

  async listLayers(gateId: string): Promise<GateLayerResult[]> {
    return this.bodies<GateLayerResult>('SELECT body FROM gate_layers WHERE gate_id = ? ORDER BY id', gateId);
  }

  async listTestUses(datasetSha256?: string): Promise<TestSplitUse[]> {
    return datasetSha256 === undefined
      ? this.bodies<TestSplitUse>('SELECT body FROM test_split_uses ORDER BY id')
      : this.bodies<TestSplitUse>('SELECT body FROM test_split_uses WHERE dataset_sha256 = ? ORDER BY id', datasetSha256);
  }

  async getReviewItem(reviewId: string): Promise<ReviewItem | undefined> {
    const row = this.db.prepare('SELECT body FROM review_items WHERE review_id = ?').get(reviewId) as Row | undefined;
    return row === undefined ? undefined : (JSON.parse(text(row, 'body')) as ReviewItem);
  }

  async listReviewItems(statuses?: readonly ReviewStatus[]): Promise<ReviewItem[]> {
    if (statuses === undefined) return this.bodies<ReviewItem>('SELECT body FROM review_items ORDER BY review_id');
    if (statuses.length === 0) return [];
    return this.bodies<ReviewItem>(`SELECT body FROM review_items WHERE status IN (${statuses.map(() => '?').join(', ')}) ORDER BY review_id`, ...statuses);
  }

  async listDecisions(reviewId?: string): Promise<ReviewDecision[]> {
    const rows = (reviewId === undefined
      ? this.db.prepare('SELECT review_id, decision, reviewer, note, decided_at FROM review_decisions ORDER BY id').all()
      : this.db.prepare('SELECT review_id, decision, reviewer, note, decided_at FROM review_decisions WHERE review_id = ? ORDER BY id').all(reviewId)) as Row[];
    return rows.map((row) => ({ review_id: text(row, 'review_id'), decision: text(row, 'decision') as ReviewDecision['decision'], reviewer: text(row, 'reviewer'), note: row['note'] === null ? null : text(row, 'note'), decided_at: text(row, 'decided_at') }));
  }

  async getSettings(): Promise<Record<string, string>> {
    return Object.fromEntries((this.db.prepare('SELECT key, value FROM settings').all() as Row[]).map((row) => [text(row, 'key'), text(row, 'value')]));
  }

  async integrityProblems(): Promise<string[]> {
    const rows = this.db.pragma('integrity_check') as Row[];
    const problems = rows.map((row) => text(row, 'integrity_check')).filter((line) => line !== 'ok');
    const gaps = this.db.prepare('SELECT r.memory_id FROM memory_records r WHERE r.head_version != (SELECT COUNT(*) FROM memory_versions v WHERE v.memory_id = r.memory_id) OR r.head_version != (SELECT MAX(version) FROM memory_versions v WHERE v.memory_id = r.memory_id)').all() as Row[];
    return [...problems, ...gaps.map((row) => `${text(row, 'memory_id')}: versions are not 1..head`)];
  }

  close(): void {
    this.db.close();
  }

  private bodies<T>(sql: string, ...params: string[]): T[] {
    return (this.db.prepare(sql).all(...params) as Row[]).map((row) => JSON.parse(text(row, 'body')) as T);
  }
}

function validateRecord(record: MemoryRecord): void {
  requireProvenance(record, record.memory_id ? `\`${record.memory_id}\`` : '(no id)');
  if (!record.memory_id) throw new Error('memory record without memory_id');
  if (!MEMORY_TYPES.includes(record.type)) throw new Error(`memory record ${record.memory_id}: unknown type ${String(record.type)}`);
  if (!Number.isInteger(record.version) || record.version < 1) throw new Error(`memory record ${record.memory_id}: version must be a positive integer`);
}
