import { describe, expect, test } from 'vitest';
import { effectiveWeight, planDecayRetirements } from './decay.js';
import { ingestRun } from './ingest-run.js';
import { newRecord } from './new-record.js';
import { DEFAULT_MEMORY_POLICY, policyFromSettings } from './policy.js';
import { retrieve } from './retrieval.js';
import { days, fakeRun, T0, tempStore } from './test-support/fixtures.js';

const provenance = { source_run: 'bf-1', base_url: 'sim://local', model: 'm', budget: 1000, n: 1, verdict: 'real_evolution' };

describe('decay (active forgetting) on an injected clock', () => {
  test('an unconfirmed record halves its weight every half-life', () => {
    const policy = { ...DEFAULT_MEMORY_POLICY, halfLifeDays: 10 };
    const record = newRecord('mem-a-001', 'skill_candidate', { ...provenance, subject: 'a', source: 's', changelog: 'c', weight: 1 }, T0);
    expect(effectiveWeight(record, T0, policy)).toBe(1);
    expect(effectiveWeight(record, days(10), policy)).toBeCloseTo(0.5, 12);
    expect(effectiveWeight(record, days(20), policy)).toBeCloseTo(0.25, 12);
    expect(effectiveWeight(record, days(5), policy)).toBeCloseTo(Math.SQRT1_2, 12);
    // A clock behind the record does not inflate it.
    expect(effectiveWeight(record, days(-3), policy)).toBe(1);
  });

  test('the configured half-life is read from the store; reconfirmed records outrank stale ones; decayed-out records are retired on --apply', async () => {
    const { store } = tempStore();
    await store.commit({ settings: { halfLifeDays: '10' } });
    const policy = policyFromSettings(await store.getSettings());
    expect(policy.halfLifeDays).toBe(10);
    await ingestRun(fakeRun({ run_id: 'a1', verdict: 'real_evolution', candidate_id: 'skill-a-v1' }), store, T0);
    await ingestRun(fakeRun({ run_id: 'b1', verdict: 'real_evolution', candidate_id: 'skill-b-v1' }), store, T0);
    await ingestRun(fakeRun({ run_id: 'b2', verdict: 'real_evolution', candidate_id: 'skill-b-v1' }), store, days(20));
    const at20 = retrieve(await store.listRecords(), { now: days(20), policy });
    expect(at20.map((r) => [r.record.memory_id, Number(r.weight.toFixed(3))])).toEqual([['mem-b-001', 1], ['mem-a-001', 0.25]]);
    // 50 days: a is at 1/32 < 0.05 → out of retrieval, then retired by apply; b (confirmed at day 20) is at 1/8.
    const at50 = retrieve(await store.listRecords(), { now: days(50), policy });
    expect(at50.map((r) => r.record.memory_id)).toEqual(['mem-b-001']);
    const writes = planDecayRetirements(await store.listRecords(), days(50), policy);
    expect(writes.map((w) => [w.record.memory_id, w.record.status])).toEqual([['mem-a-001', 'retired']]);
    expect(writes[0]?.record.changelog).toContain('not reconfirmed for 50 days (half-life 10 days)');
    await store.commit({ records: writes });
    expect((await store.getRecord('mem-a-001'))?.status).toBe('retired');
    store.close();
  });
});

describe('retrieval', () => {
  test('negative patterns come first even at lower weight; words filter', () => {
    const policy = DEFAULT_MEMORY_POLICY;
    const skill = newRecord('mem-a-001', 'skill', { ...provenance, subject: 'skill-a', source: 's', changelog: 'c', weight: 1, reason: 'dates' }, T0);
    const negative = newRecord('mem-b-001', 'negative_pattern', { ...provenance, subject: 'skill-b', source: 's', changelog: 'c', weight: 0.4, pattern: 'depends on Best-of-N', verdict: 'budget_leakage' }, T0);
    const frozen = { ...newRecord('mem-c-001', 'skill', { ...provenance, subject: 'skill-c', source: 's', changelog: 'c', weight: 1 }, T0), status: 'frozen' as const };
    expect(retrieve([skill, negative, frozen], { now: T0, policy }).map((r) => [r.record.memory_id, r.negative])).toEqual([['mem-b-001', true], ['mem-a-001', false]]);
    expect(retrieve([skill, negative, frozen], { now: T0, policy, query: 'DATES' }).map((r) => r.record.memory_id)).toEqual(['mem-a-001']);
    expect(retrieve([skill, negative, frozen], { now: T0, policy, includeInactive: true })).toHaveLength(3);
  });
});
