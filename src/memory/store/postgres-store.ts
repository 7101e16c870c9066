/**
 * The governance store in the team database (DESIGN §10): the same interface and the same
 * optimistic checks as the SQLite store. Each ChangeSet is one transaction that first takes
 * a transaction-scoped advisory lock — the counterpart of SQLite's `BEGIN IMMEDIATE` — so two
 * writers on two machines cannot both pass a check; a loser gets StoreConflictError and
 * `withConflictRetry` recomputes from fresh reads.
 */
import type pg from 'pg';
import { requireProvenance } from '../provenance.js';
import { MEMORY_TYPES, type MemoryRecord } from '../record.js';
import type { GateLayerResult, GateRun, ReviewDecision, ReviewItem, ReviewStatus, TestSplitUse } from './records.js';
import { StoreConflictError, type ChangeSet, type MemoryStore, type RecordFilter, type StoredVersion } from './spec.js';

/** Fixed: the advisory lock every governance write takes. */
const STORE_LOCK = 7_402_611_301;

type Row = Record<string, unknown>;

export class PostgresMemoryStore implements MemoryStore {
  /** `onClose`: ends the pool when the store owns it. */
  constructor(private readonly db: pg.Pool, private readonly onClose?: () => void) {}

  async commit(changes: ChangeSet): Promise<void> {
    for (const { record } of changes.records ?? []) validateRecord(record);
    const client = await this.db.connect();
    try {
      await client.query('BEGIN');
      await client.query('SELECT pg_advisory_xact_lock($1)', [STORE_LOCK]);
      await apply(client, changes);
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK').catch(() => {});
      throw error;
    } finally {
      client.release();
    }
  }

  async getRecord(memoryId: string): Promise<MemoryRecord | undefined> {
    return (await this.bodies<MemoryRecord>('SELECT v.body FROM memory_records r JOIN memory_versions v ON v.memory_id = r.memory_id AND v.version = r.head_version WHERE r.memory_id = $1', memoryId))[0];
  }

  async listRecords(filter: RecordFilter = {}): Promise<MemoryRecord[]> {
    const where: string[] = [];
    const params: unknown[] = [];
    const within = (column: string, values: readonly string[] | undefined): void => {
      if (values === undefined) return;
      params.push([...values]);
      where.push(`r.${column} = ANY($${params.length}::text[])`);
    };
    within('type', filter.types);
    within('status', filter.statuses);
    within('candidate_id', filter.candidateId === undefined ? undefined : [filter.candidateId]);
    within('subject', filter.subject === undefined ? undefined : [filter.subject]);
    const sql = `SELECT v.body FROM memory_records r JOIN memory_versions v ON v.memory_id = r.memory_id AND v.version = r.head_version${where.length ? ` WHERE ${where.join(' AND ')}` : ''} ORDER BY r.memory_id COLLATE "C"`;
    return (await this.db.query<{ body: MemoryRecord }>(sql, params)).rows.map((row) => row.body);
  }

  async listVersions(memoryId: string): Promise<StoredVersion[]> {
    const rows = (await this.db.query<{ body: MemoryRecord; diff: string | null; created_at: string }>('SELECT body, diff, created_at FROM memory_versions WHERE memory_id = $1 ORDER BY version', [memoryId])).rows;
    return rows.map((row) => ({ record: row.body, diff: row.diff, created_at: row.created_at }));
  }

  async getGate(gateId: string): Promise<GateRun | undefined> {
    return (await this.bodies<GateRun>('SELECT body FROM gates WHERE gate_id = $1', gateId))[0];
  }

  async listGates(): Promise<GateRun[]> {
    return this.bodies<GateRun>('SELECT body FROM gates ORDER BY gate_id COLLATE "C"');
  }

  async listLayers(gateId: string): Promise<GateLayerResult[]> {
    return this.bodies<GateLayerResult>('SELECT body FROM gate_layers WHERE gate_id = $1 ORDER BY id', gateId);
  }

  async listTestUses(datasetSha256?: string): Promise<TestSplitUse[]> {
    return datasetSha256 === undefined
      ? this.bodies<TestSplitUse>('SELECT body FROM test_split_uses ORDER BY id')
      : this.bodies<TestSplitUse>('SELECT body FROM test_split_uses WHERE dataset_sha256 = $1 ORDER BY id', datasetSha256);
  }

  async getReviewItem(reviewId: string): Promise<ReviewItem | undefined> {
    return (await this.bodies<ReviewItem>('SELECT body FROM review_items WHERE review_id = $1', reviewId))[0];
  }

  async listReviewItems(statuses?: readonly ReviewStatus[]): Promise<ReviewItem[]> {
    if (statuses === undefined) return this.bodies<ReviewItem>('SELECT body FROM review_items ORDER BY review_id COLLATE "C"');
    return (await this.db.query<{ body: ReviewItem }>('SELECT body FROM review_items WHERE status = ANY($1::text[]) ORDER BY review_id COLLATE "C"', [[...statuses]])).rows.map((r) => r.body);
  }

  async listDecisions(reviewId?: string): Promise<ReviewDecision[]> {
    const sql = `SELECT review_id, decision, reviewer, note, decided_at FROM review_decisions${reviewId === undefined ? '' : ' WHERE review_id = $1'} ORDER BY id`;
    return (await this.db.query<ReviewDecision>(sql, reviewId === undefined ? [] : [reviewId])).rows;
  }

  async getSettings(): Promise<Record<string, string>> {
    return Object.fromEntries((await this.db.query<{ key: string; value: string }>('SELECT key, value FROM memory_settings')).rows.map((r) => [r.key, r.value]));
  }

  async integrityProblems(): Promise<string[]> {
    const gaps = (await this.db.query<{ memory_id: string }>('SELECT r.memory_id FROM memory_records r WHERE r.head_version <> (SELECT count(*) FROM memory_versions v WHERE v.memory_id = r.memory_id) OR r.head_version <> (SELECT max(version) FROM memory_versions v WHERE v.memory_id = r.memory_id)')).rows;
    return gaps.map((row) => `${row.memory_id}: versions are not 1..head`);
  }

  close(): void {
    this.onClose?.();
  }

  private async bodies<T>(sql: string, ...params: unknown[]): Promise<T[]> {
    return (await this.db.query<{ body: T }>(sql, params)).rows.map((row) => row.body);
  }
}

async function apply(db: pg.PoolClient, changes: ChangeSet): Promise<void> {
  const one = async (sql: string, params: unknown[]): Promise<Row | undefined> => (await db.query(sql, params)).rows[0] as Row | undefined;
  for (const { record, diff } of changes.records ?? []) {
    const head = await one('SELECT head_version FROM memory_records WHERE memory_id = $1', [record.memory_id]);
    const current = head === undefined ? 0 : Number(head['head_version']);
    if (current !== record.version - 1) throw new StoreConflictError(`${record.memory_id}: expected head version ${record.version - 1}, found ${current}`);
    const columns = [record.type, record.status, record.subject, record.candidate_id, record.updated_at, record.memory_id];
    if (current === 0) await db.query('INSERT INTO memory_records (head_version, type, status, subject, candidate_id, updated_at, memory_id) VALUES (1, $1, $2, $3, $4, $5, $6)', columns);
    else await db.query('UPDATE memory_records SET head_version = head_version + 1, type = $1, status = $2, subject = $3, candidate_id = $4, updated_at = $5 WHERE memory_id = $6', columns);
    await db.query('INSERT INTO memory_versions (memory_id, version, body, changelog, diff, created_at) VALUES ($1, $2, $3, $4, $5, $6)', [record.memory_id, record.version, JSON.stringify(record), record.changelog, diff, record.updated_at]);
  }
  for (const { gate, expected } of changes.gates ?? []) {
    const row = await one('SELECT status FROM gates WHERE gate_id = $1', [gate.gate_id]);
    const found = row === undefined ? null : String(row['status']);
    if (found !== expected) throw new StoreConflictError(`gate ${gate.gate_id}: expected status ${expected ?? '(new)'}, found ${found ?? '(none)'}`);
    await db.query('INSERT INTO gates (gate_id, status, candidate_id, body, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (gate_id) DO UPDATE SET status = EXCLUDED.status, candidate_id = EXCLUDED.candidate_id, body = EXCLUDED.body, updated_at = EXCLUDED.updated_at',
      [gate.gate_id, gate.status, gate.candidate_id, JSON.stringify(gate), gate.created_at, gate.updated_at]);
  }
  for (const layer of changes.layers ?? []) {
    await db.query('INSERT INTO gate_layers (gate_id, layer, name, status, body, recorded_at) VALUES ($1, $2, $3, $4, $5, $6)', [layer.gate_id, layer.layer, layer.name, layer.status, JSON.stringify(layer), layer.recorded_at]);
  }
  for (const use of changes.testUses ?? []) {
    await db.query('INSERT INTO test_split_uses (dataset_sha256, run_id, body, used_at) VALUES ($1, $2, $3, $4) ON CONFLICT (run_id) DO NOTHING', [use.dataset_sha256, use.run_id, JSON.stringify(use), use.used_at]);
  }
  for (const { item, expected } of changes.reviewItems ?? []) {
    const row = await one('SELECT status FROM review_items WHERE review_id = $1', [item.review_id]);
    const found = row === undefined ? null : String(row['status']);
    if (found !== expected) throw new StoreConflictError(`review ${item.review_id}: expected status ${expected ?? '(new)'}, found ${found ?? '(none)'}`);
    await db.query('INSERT INTO review_items (review_id, kind, status, body, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (review_id) DO UPDATE SET status = EXCLUDED.status, body = EXCLUDED.body, updated_at = EXCLUDED.updated_at',
      [item.review_id, item.kind, item.status, JSON.stringify(item), item.created_at, item.updated_at]);
  }
  for (const decision of changes.decisions ?? []) {
    await db.query('INSERT INTO review_decisions (review_id, decision, reviewer, note, decided_at) VALUES ($1, $2, $3, $4, $5)', [decision.review_id, decision.decision, decision.reviewer, decision.note, decision.decided_at]);
  }
  for (const [key, value] of Object.entries(changes.settings ?? {})) {
    await db.query('INSERT INTO memory_settings (key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value', [key, value]);
  }
}

function validateRecord(record: MemoryRecord): void {
  requireProvenance(record, record.memory_id ? `\`${record.memory_id}\`` : '(no id)');
  if (!record.memory_id) throw new Error('memory record without memory_id');
  if (!MEMORY_TYPES.includes(record.type)) throw new Error(`memory record ${record.memory_id}: unknown type ${String(record.type)}`);
  if (!Number.isInteger(record.version) || record.version < 1) throw new Error(`memory record ${record.memory_id}: version must be a positive integer`);
}
