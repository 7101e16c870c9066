import { describe, expect, test } from 'vitest';
import { listConflicts } from './conflicts.js';
import { ingestRun } from './ingest-run.js';
import { NEGATIVE_PATTERN } from './ingest-rules.js';
import { retrieve } from './retrieval.js';
import { factsFromRun } from './run-facts.js';
import { DEFAULT_MEMORY_POLICY } from './policy.js';
import { days, fakeRun, T0, tempStore } from './test-support/fixtures.js';

describe('ingest: verdicts become memory', () => {
  test('real_evolution on val → skill_candidate with the six provenance fields, seed deltas and the diff from the baseline', async () => {
    const { store } = tempStore();
    const result = await ingestRun(fakeRun({ run_id: 'bf-val-1', verdict: 'real_evolution', delta: 0.24, tokensGrowth: 0.88 }), store, T0);
    const [record] = await store.listRecords();
    expect(record).toMatchObject({
      memory_id: 'mem-date-parser-001', type: 'skill_candidate', source_run: 'bf-val-1', base_url: 'sim://local', model: 'sim-small', budget: 3000, n: 1,
      verdict: 'real_evolution', disposition: 'promote_to_skill', same_budget_delta: 0.24, bestofn_off_delta: 0.24, source: 'val_set_date-parser', version: 1, status: 'active', weight: 1,
    });
    expect(record?.tokens_per_success_delta).toBeCloseTo(-0.12, 10);
    expect(result.messages[0]).toContain('mem-date-parser-001 (skill_candidate) created');
    const [version] = await store.listVersions('mem-date-parser-001');
    expect(version?.diff).toContain('--- skill-date-parser-v2');
    expect(version?.diff).toContain('+Plus two-digit years');
    store.close();
  });

  test('budget_leakage → a negative pattern with pattern, bestofn_ratio and reason, shown first and marked by retrieval', async () => {
    const { store } = tempStore();
    await ingestRun(fakeRun({ run_id: 'bf-val-1', verdict: 'real_evolution' }), store, T0);
    await ingestRun(fakeRun({ run_id: 'bf-val-2', verdict: 'budget_leakage', candidate_id: 'skill-number-search-v2', baseline_id: 'skill-number-search-v1', delta: 0.01, ci95: [-0.03, 0.05], bestOfN: { n: 8, delta: 0.3, bestofnRatio: 5.8 } }), store, T0);
    const negative = (await store.listRecords({ types: ['negative_pattern'] }))[0];
    expect(negative).toMatchObject({ memory_id: 'mem-number-search-001', pattern: NEGATIVE_PATTERN, bestofn_ratio: 5.8, n: 8, verdict: 'budget_leakage', disposition: 'do_not_promote' });
    expect(negative?.reason).toContain('5.8× the n=1 tokens');
    const found = retrieve(await store.listRecords(), { now: T0, policy: DEFAULT_MEMORY_POLICY });
    expect(found.map((r) => [r.record.type, r.negative])).toEqual([['negative_pattern', true], ['skill_candidate', false]]);
    store.close();
  });

  test('other verdicts are evidence on the candidate; a run is ingested once', async () => {
    const { store } = tempStore();
    await ingestRun(fakeRun({ run_id: 'bf-val-1', verdict: 'real_evolution' }), store, T0);
    const again = await ingestRun(fakeRun({ run_id: 'bf-val-1', verdict: 'real_evolution' }), store, T0);
    expect(again.messages[0]).toContain('already in memory');
    await ingestRun(fakeRun({ run_id: 'bf-val-3', verdict: 'inconclusive', delta: 0.09, ci95: [-0.01, 0.19] }), store, days(1));
    const record = await store.getRecord('mem-date-parser-001');
    expect(record?.version).toBe(2);
    expect(record?.evidence.map((e) => [e.run_id, e.effect])).toEqual([['bf-val-1', 'confirms'], ['bf-val-3', 'neutral']]);
    expect(record?.weight).toBe(1);
    expect((await store.listRecords()).length).toBe(1);
    store.close();
  });

  test('a verdict with no record to attach to becomes a learning; a test-split gain is never a skill candidate', async () => {
    const { store } = tempStore();
    await ingestRun(fakeRun({ run_id: 'bf-test-1', verdict: 'real_evolution', split: 'test' }), store, T0);
    await ingestRun(fakeRun({ run_id: 'bf-val-9', verdict: 'no_gain', candidate_id: 'skill-null-v1', baseline_id: 'skill-null-v0' }), store, T0);
    const records = await store.listRecords();
    expect(records.map((r) => [r.type, r.candidate_id])).toEqual([['learning', 'skill-date-parser-v3'], ['learning', 'skill-null-v1']]);
    expect(records[0]?.body).toContain('screen candidates on val');
    expect(await store.listTestUses()).toHaveLength(1);
    store.close();
  });
});

describe('conflicts and forgetting', () => {
  test('contradicting same-budget evidence halves the weight, a second contradiction freezes', async () => {
    const { store } = tempStore();
    await ingestRun(fakeRun({ run_id: 'v1', verdict: 'real_evolution' }), store, T0);
    await ingestRun(fakeRun({ run_id: 'v2', verdict: 'no_gain', delta: 0, ci95: [-0.04, 0.04] }), store, days(1));
    let record = await store.getRecord('mem-date-parser-001');
    expect(record?.status).toBe('active');
    expect(record?.weight).toBeCloseTo(0.5 * 2 ** (-1 / 30), 10);
    expect(record?.changelog).toContain('contradicted by v2');
    await ingestRun(fakeRun({ run_id: 'v3', verdict: 'budget_growth' }), store, days(2));
    record = await store.getRecord('mem-date-parser-001');
    expect(record?.status).toBe('frozen');
    expect(record?.status_reason).toContain('weight fell below 0.3');
    // Frozen records are not retrieved; the history is all there.
    expect(retrieve(await store.listRecords(), { now: days(2), policy: DEFAULT_MEMORY_POLICY })).toHaveLength(0);
    expect((await store.listVersions('mem-date-parser-001')).map((v) => v.record.version)).toEqual([1, 2, 3]);
    store.close();
  });

  test('a regression on the test split freezes at once and queues a regression decision', async () => {
    const { store } = tempStore();
    await ingestRun(fakeRun({ run_id: 'v1', verdict: 'real_evolution' }), store, T0);
    const result = await ingestRun(fakeRun({ run_id: 't1', verdict: 'regression', split: 'test', delta: -0.1, ci95: [-0.15, -0.05], regressionWorse: true }), store, days(1));
    const record = await store.getRecord('mem-date-parser-001');
    expect(record?.status).toBe('frozen');
    expect(record?.status_reason).toBe('frozen: its latest test-split run t1 is a regression');
    expect(result.reviewItems.map((i) => [i.review_id, i.kind])).toEqual([['rev-0001', 'regression']]);
    expect((await store.listReviewItems(['pending']))[0]?.card.same_budget?.delta).toBe(-0.1);
    store.close();
  });

  test('reconfirming evidence restores the weight; a leak for a candidate lowers it and is listed as a conflict', async () => {
    const { store } = tempStore();
    await ingestRun(fakeRun({ run_id: 'v1', verdict: 'real_evolution' }), store, T0);
    await ingestRun(fakeRun({ run_id: 'v2', verdict: 'budget_leakage', delta: 0.01, ci95: [-0.03, 0.05] }), store, days(1));
    const candidate = await store.getRecord('mem-date-parser-001');
    expect(candidate?.weight).toBeLessThan(0.5);
    const conflicts = listConflicts(await store.listRecords());
    expect(conflicts.map((c) => [c.subject, c.positive.map((r) => r.memory_id), c.negative.map((r) => r.memory_id)])).toEqual([['skill-date-parser-v3', ['mem-date-parser-001'], ['mem-date-parser-002']]]);
    await ingestRun(fakeRun({ run_id: 'v3', verdict: 'real_evolution' }), store, days(2));
    const after = await store.getRecord('mem-date-parser-001');
    expect(after?.weight).toBe(1);
    expect(after?.confirmed_at).toBe(days(2).toISOString());
    // The same run contradicts the negative pattern.
    expect((await store.getRecord('mem-date-parser-002'))?.changelog).toContain('contradicted by v3');
    store.close();
  });
});

describe('run facts', () => {
  test('flagged attribution findings reach the facts (and so the review card); unflagged ones do not', () => {
    const run = fakeRun({ run_id: 'bf-1', verdict: 'no_gain' });
    const finding = (detector: 'length_gaming' | 'tool_redundancy', flagged: boolean) => ({ detector, flagged, applicable: true, summary: `${detector} summary`, evidence: {}, cause: null, action: null });
    run.verdict.attribution = { findings: [finding('length_gaming', true), finding('tool_redundancy', false)], flags: ['length_gaming'] };
    expect(factsFromRun(run.verdict, run.manifest).attribution).toEqual(['length_gaming: length_gaming summary']);
  });
});
