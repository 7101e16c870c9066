import Database from 'better-sqlite3';
import { describe, expect, test } from 'vitest';
import { IsobudgetError } from '../../core/errors.js';
import { newRecord } from '../new-record.js';
import { PROVENANCE_FIELDS, type MemoryRecord } from '../record.js';
import { T0, days, tempStore } from '../test-support/fixtures.js';
import { nextVersion, writeOf } from '../versioning.js';
import { MIGRATIONS } from './migrations.js';
import { StoreConflictError } from './spec.js';
import { SqliteMemoryStore } from './sqlite-store.js';

const provenance = { source_run: 'bf-1', base_url: 'https://taotoken.net/api', model: 'm', budget: 200000, n: 1, verdict: 'real_evolution' };

function record(id = 'mem-x-001', overrides: Partial<MemoryRecord> = {}): MemoryRecord {
  return { ...newRecord(id, 'learning', { ...provenance, subject: 'x', source: 'test', changelog: 'created', weight: 0.5, body: 'first text\n' }, T0), ...overrides };
}

describe('SQLite memory store', () => {
  test('one WAL file; migrations are versioned in a table and applied once', () => {
    const { store, file } = tempStore();
    expect(store.migrationVersions()).toEqual(MIGRATIONS.map((m) => m.version));
    store.close();
    const reopened = new SqliteMemoryStore(file);
    expect(reopened.migrationVersions()).toEqual([1]);
    reopened.close();
    const db = new Database(file, { readonly: true });
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect((db.prepare('SELECT name FROM schema_migrations').all() as Array<{ name: string }>)[0]?.name).toContain('memory records');
    db.close();
  });

  test.each(PROVENANCE_FIELDS)('a record without `%s` is refused with a message naming it', async (field) => {
    const { store } = tempStore();
    const bad = { ...record(), [field]: field === 'budget' || field === 'n' ? undefined : '' } as MemoryRecord;
    const error = await store.commit({ records: [{ record: bad, diff: null }] }).then(() => undefined, (e: unknown) => e);
    expect(error).toBeInstanceOf(IsobudgetError);
    expect((error as IsobudgetError).message).toBe(`memory record \`mem-x-001\` refused: missing provenance field \`${field}\``);
    expect((error as IsobudgetError).hint).toContain(`${field}:`);
    expect(await store.listRecords()).toEqual([]);
    store.close();
  });

  test('every change is a new version; old versions stay readable with their diffs', async () => {
    const { store } = tempStore();
    const v1 = record();
    await store.commit({ records: [writeOf(undefined, v1)] });
    const v2 = nextVersion(v1, { body: 'first text\nsecond line\n' }, 'note grew', days(1));
    await store.commit({ records: [writeOf(v1, v2)] });
    const versions = await store.listVersions('mem-x-001');
    expect(versions.map((v) => [v.record.version, v.record.changelog])).toEqual([[1, 'created'], [2, 'note grew']]);
    expect(versions[0]?.record.body).toBe('first text\n');
    expect(versions[1]?.diff).toBe('--- mem-x-001 v1\n+++ mem-x-001 v2\n@@ -1 +1,2 @@\n first text\n+second line\n');
    expect((await store.getRecord('mem-x-001'))?.version).toBe(2);
    store.close();
  });

  test('a stale writer gets a conflict, and a failing change set leaves nothing behind', async () => {
    const { store } = tempStore();
    const v1 = record();
    await store.commit({ records: [writeOf(undefined, v1)] });
    const a = nextVersion(v1, { title: 'a' }, 'writer a', T0);
    const b = nextVersion(v1, { title: 'b' }, 'writer b', T0);
    await store.commit({ records: [writeOf(v1, a)] });
    await expect(store.commit({ records: [writeOf(v1, b)] })).rejects.toBeInstanceOf(StoreConflictError);
    // New record + a conflicting one in one set: all or nothing.
    await expect(store.commit({ records: [writeOf(undefined, record('mem-y-001')), writeOf(v1, b)] })).rejects.toBeInstanceOf(StoreConflictError);
    expect((await store.listRecords()).map((r) => r.memory_id)).toEqual(['mem-x-001']);
    expect(await store.integrityProblems()).toEqual([]);
    store.close();
  });

  test('review items are checked against the status the decider saw', async () => {
    const { store } = tempStore();
    await store.commit({ records: [writeOf(undefined, record())] });
    const item = { review_id: 'rev-0001', kind: 'memory_write' as const, status: 'pending' as const, memory_id: 'mem-x-001', memory_version: 1, gate_id: null, reasons: [], card: { title: 't', diff: '', same_budget: null, tokens_per_success: null, p95_latency_ratio: null, bestofn: null, attribution: [], policy_changes: [], facts: [] }, created_at: T0.toISOString(), updated_at: T0.toISOString() };
    await store.commit({ reviewItems: [{ item, expected: null }] });
    await expect(store.commit({ reviewItems: [{ item, expected: null }] })).rejects.toBeInstanceOf(StoreConflictError);
    await store.commit({ reviewItems: [{ item: { ...item, status: 'approved' }, expected: 'pending' }], decisions: [{ review_id: 'rev-0001', decision: 'approve', reviewer: 'ana', note: null, decided_at: T0.toISOString() }] });
    await expect(store.commit({ reviewItems: [{ item: { ...item, status: 'rejected' }, expected: 'pending' }] })).rejects.toBeInstanceOf(StoreConflictError);
    expect(await store.listDecisions('rev-0001')).toEqual([{ review_id: 'rev-0001', decision: 'approve', reviewer: 'ana', note: null, decided_at: T0.toISOString() }]);
    store.close();
  });
});
