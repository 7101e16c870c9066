/**
 * The Postgres memory store against the SQLite one: the same change sets give the same
 * reads, and the same optimistic checks refuse the same stale writes — on a real server,
 * with two "machines" (two pools) racing.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { freshSchema, skipWithoutPostgres, type TestSchema } from '../../test-support/postgres.js';
import { applyMigrations, MIGRATIONS, openPool, type Database } from '../../db/index.js';
import { newRecord } from '../new-record.js';
import type { MemoryRecord } from '../record.js';
import { T0, days, tempStore } from '../test-support/fixtures.js';
import { nextVersion, writeOf } from '../versioning.js';
import { PostgresMemoryStore } from './postgres-store.js';
import type { GateRun, ReviewItem } from './records.js';
import { StoreConflictError, withConflictRetry, type ChangeSet, type MemoryStore } from './spec.js';

const skip = await skipWithoutPostgres('Postgres memory store');
const provenance = { source_run: 'bf-1', base_url: 'https://taotoken.net/api', model: 'm', budget: 200000, n: 1, verdict: 'real_evolution' };
const record = (id: string, overrides: Partial<MemoryRecord> = {}): MemoryRecord => ({ ...newRecord(id, 'learning', { ...provenance, subject: id.slice(4, 5), source: 'test', changelog: 'created', weight: 0.5, body: `text of ${id}\n` }, T0), ...overrides });
const gate: GateRun = { gate_id: 'g-1', config_path: '/x/e.yaml', baseline_config_path: null, candidate_id: 'c', memory_id: 'mem-a-1', status: 'running' as GateRun['status'], needs_human: [], test_run_id: null, review_id: null, created_at: T0.toISOString(), updated_at: T0.toISOString() };
const review = { review_id: 'rv-1', kind: 'promotion', status: 'pending', memory_id: 'mem-a-1', memory_version: 1, gate_id: 'g-1', reasons: ['budget policy'], card: {}, created_at: T0.toISOString(), updated_at: T0.toISOString() } as unknown as ReviewItem;

async function script(store: MemoryStore): Promise<unknown> {
  const a = record('mem-a-1');
  const b = record('mem-b-2', { type: 'negative_pattern' });
  await store.commit({ records: [writeOf(undefined, a), writeOf(undefined, b)], gates: [{ gate, expected: null }], settings: { decay_days: '30' } });
  const a2 = nextVersion(a, { body: 'text of mem-a-1\nmore\n' }, 'grew', days(1));
  await store.commit({ records: [writeOf(a, a2)], layers: [{ gate_id: 'g-1', layer: 1, name: 'format', status: 'passed', summary: 'ok', recorded_at: T0.toISOString() } as never], reviewItems: [{ item: review, expected: null }] });
  await store.commit({ testUses: [{ dataset_sha256: 'abc', dataset_path: 't.jsonl', candidate_id: 'c', gate_id: 'g-1', run_id: 'r-1', used_at: T0.toISOString() }], decisions: [{ review_id: 'rv-1', decision: 'approve', reviewer: 'ana', note: null, decided_at: T0.toISOString() }] });
  const stale: ChangeSet = { records: [writeOf(a, nextVersion(a, { body: 'stale' }, 'stale', days(2)))] };
  const refused = await store.commit(stale).then(() => 'committed', (e: unknown) => (e instanceof StoreConflictError ? e.message : String(e)));
  return {
    refused,
    records: await store.listRecords(),
    negatives: await store.listRecords({ types: ['negative_pattern'] }),
    none: await store.listRecords({ statuses: [] }),
    versions: await store.listVersions('mem-a-1'),
    gates: await store.listGates(),
    layers: await store.listLayers('g-1'),
    uses: await store.listTestUses('abc'),
    reviews: await store.listReviewItems(['pending']),
    decisions: await store.listDecisions(),
    settings: await store.getSettings(),
    problems: await store.integrityProblems(),
  };
}

describe.skipIf(skip)('Postgres memory store', () => {
  let schema: TestSchema;
  let pools: Database[];
  beforeAll(async () => {
    schema = await freshSchema('memstore');
    pools = [openPool(schema.url, { applicationName: 'a', max: 4 }), openPool(schema.url, { applicationName: 'b', max: 4 })];
    await applyMigrations(pools[0]!, MIGRATIONS);
  });
  afterAll(async () => {
    for (const pool of pools ?? []) await pool.end();
    await schema?.drop();
  });

  test('the same change sets read back exactly as from SQLite', async () => {
    const { store: sqlite } = tempStore();
    const expected = await script(sqlite);
    sqlite.close();
    expect(await script(new PostgresMemoryStore(pools[0]!))).toEqual(expected);
    expect((expected as { refused: string }).refused).toMatch(/expected head version 1, found 2/);
  });

  test('two machines bumping one record 20 times each: 40 versions, none lost', async () => {
    const stores = pools.map((pool) => new PostgresMemoryStore(pool));
    await stores[0]!.commit({ records: [writeOf(undefined, record('mem-c-3'))] });
    const bump = async (store: MemoryStore, i: number): Promise<void> => withConflictRetry(async () => {
      const head = (await store.getRecord('mem-c-3'))!;
      await store.commit({ records: [writeOf(head, nextVersion(head, { weight: head.weight }, `bump ${i}`, days(1)))] });
    }, 200);
    await Promise.all(Array.from({ length: 40 }, (_, i) => bump(stores[i % 2]!, i)));
    const versions = await stores[1]!.listVersions('mem-c-3');
    expect(versions.map((v) => v.record.version)).toEqual(Array.from({ length: 41 }, (_, i) => i + 1));
    expect(await stores[0]!.integrityProblems()).toEqual([]);
  });
});
