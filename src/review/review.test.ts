import { PassThrough } from 'node:stream';
import { describe, expect, test } from 'vitest';
import { createReviewCommand } from '../cli/commands/review.js';
import type { CliIO } from '../cli/io.js';
import { ingestRun } from '../memory/ingest-run.js';
import { promoteCandidate } from '../memory/promote.js';
import { days, fakeRun, T0, tempStore } from '../memory/test-support/fixtures.js';
import type { MemoryStore } from '../memory/store/spec.js';
import { SqliteMemoryStore } from '../memory/store/sqlite-store.js';
import { decideItem } from './queue.js';

function capture(cwd: string): { io: CliIO; out: () => string; err: () => string } {
  let out = '';
  let err = '';
  return { io: { stdout: { write: (t) => void (out += t) }, stderr: { write: (t) => void (err += t) }, env: {}, cwd, signal: new AbortController().signal }, out: () => out, err: () => err };
}

/** A skill_candidate plus a queued promotion card for it. */
async function queued(store: MemoryStore, candidate = 'skill-date-parser-v3', runId = 'bf-val-1'): Promise<string> {
  await ingestRun(fakeRun({ run_id: runId, verdict: 'real_evolution', candidate_id: candidate }), store, T0);
  const record = (await store.listRecords({ candidateId: candidate }))[0];
  const reviewId = `rev-000${(await store.listReviewItems()).length + 1}`;
  const at = T0.toISOString();
  await store.commit({ reviewItems: [{ expected: null, item: {
    review_id: reviewId, kind: 'promotion', status: 'pending', memory_id: record?.memory_id ?? '', memory_version: 1, gate_id: null, reasons: ['promotion to skill: human confirmation (layer 5)'],
    card: { title: `promote ${candidate}`, diff: '--- v2\n+++ v3\n@@ -1 +1,2 @@\n rules\n+two-digit years\n', same_budget: { delta: 0.22, ci95: [0.17, 0.28], cases: 200, split: 'test' }, tokens_per_success: { baseline: 1120, candidate: 980, growth: 0.875 }, p95_latency_ratio: 1.04, bestofn: { n: 8, delta: 0.13, total_tokens_ratio: 1.02 }, attribution: ['length_gaming: output +40% with flat accuracy'], policy_changes: [], facts: [] },
    created_at: at, updated_at: at,
  } }] });
  return reviewId;
}

describe('isobudget review', () => {
  test('interactive: a card at a time with diff, CI, tokens/success and attribution; choices recorded with reviewer and note', async () => {
    const { store, dir, file } = tempStore();
    await queued(store);
    await queued(store, 'skill-number-search-v2', 'bf-val-2');
    store.close();
    const input = new PassThrough();
    input.end('x\na\nclear gain at n=1\nd\n\n');
    const command = createReviewCommand({ now: () => days(1), input: () => input });
    const { io, out } = capture(dir);
    expect(await command.run(['--store', file, '--interactive', '--reviewer', 'ana'], io)).toBe(0);
    const text = out();
    expect(text).toContain('same budget, n=1 (test, 200 cases): +0.220  95% CI [+0.170, +0.280]');
    expect(text).toContain('tokens/success: 1120 → 980 (−13%)   p95 latency ×1.04');
    expect(text).toContain('attribution: length_gaming: output +40% with flat accuracy');
    expect(text).toContain('    +two-digit years');
    expect(text).toContain('please answer a, r, d, s or q');
    expect(text).toContain('rev-0001 approved by ana: clear gain at n=1');
    expect(text).toContain('rev-0002 deferred by ana');
    expect(text).toContain('2 decided, 0 skipped');
    const reopened = new SqliteMemoryStore(file);
    expect((await reopened.listDecisions()).map((d) => [d.review_id, d.decision, d.reviewer, d.note, d.decided_at])).toEqual([
      ['rev-0001', 'approve', 'ana', 'clear gain at n=1', days(1).toISOString()],
      ['rev-0002', 'defer', 'ana', null, days(1).toISOString()],
    ]);
    expect((await reopened.listReviewItems(['pending', 'deferred'])).map((i) => [i.review_id, i.status])).toEqual([['rev-0002', 'deferred']]);
    reopened.close();
  });

  test('non-interactive --decide for scripts; a decided item cannot be decided again', async () => {
    const { store, dir, file } = tempStore();
    await queued(store);
    store.close();
    const command = createReviewCommand({ now: () => days(1), input: () => new PassThrough() });
    const listing = capture(dir);
    expect(await command.run(['--store', file], listing.io)).toBe(0);
    expect(listing.out()).toContain('decide with: isobudget review --decide rev-0001=approve|reject|defer');
    const first = capture(dir);
    expect(await command.run(['--store', file, '--decide', 'rev-0001=reject', '--note', 'gain is from length', '--reviewer', 'bo'], first.io)).toBe(0);
    expect(first.out()).toContain('rev-0001 rejected by bo: gain is from length — mem-date-parser-001 retired');
    await expect(command.run(['--store', file, '--decide', 'rev-0001=approve'], capture(dir).io)).rejects.toThrow('rev-0001 was already rejected');
    await expect(command.run(['--store', file, '--decide', 'rev-0001=maybe'], capture(dir).io)).rejects.toThrow('--decide expects ID=approve|reject|defer');
  });

  test('a regression decision rolls a skill back to its previous approved text; reject reactivates', async () => {
    const { store } = tempStore();
    const approval = { reviewer: 'ana', note: null, at: T0.toISOString(), gate_id: null, review_id: null };
    for (const [candidate, run] of [['skill-date-parser-v3', 'v3'], ['skill-date-parser-v4', 'v4']] as const) {
      await ingestRun(fakeRun({ run_id: run, verdict: 'real_evolution', candidate_id: candidate }), store, T0);
      const records = await store.listRecords();
      const record = records.find((r) => r.candidate_id === candidate && r.type === 'skill_candidate');
      // Different text for v4 so the rollback has somewhere to go.
      const withText = record && candidate.endsWith('v4') && record.skill ? { ...record, skill: { ...record.skill, text: `${record.skill.text}v4 line\n` } } : record;
      if (!withText) throw new Error('no candidate');
      await store.commit({ records: promoteCandidate(withText, records, approval, T0).writes });
    }
    const ingest = await ingestRun(fakeRun({ run_id: 't9', verdict: 'regression', split: 'test', candidate_id: 'skill-date-parser-v4', regressionWorse: true }), store, days(1));
    const skillId = (await store.listRecords({ types: ['skill'] }))[0]?.memory_id ?? '';
    expect((await store.getRecord(skillId))?.status).toBe('frozen');
    const reviewId = ingest.reviewItems[0]?.review_id ?? '';
    const message = await decideItem(store, reviewId, { decision: 'approve', reviewer: 'ana', note: null }, days(2));
    expect(message).toMatch(/rollback to v1 \(from v3\)/);
    const restored = await store.getRecord(skillId);
    expect(restored).toMatchObject({ status: 'active', candidate_id: 'skill-date-parser-v3', version: 4 });
    expect(restored?.skill?.text).not.toContain('v4 line');
    expect((await store.listVersions(skillId))[3]?.diff).toContain('-v4 line');
    const again = await ingestRun(fakeRun({ run_id: 't10', verdict: 'regression', split: 'test', candidate_id: 'skill-date-parser-v3', regressionWorse: true }), store, days(3));
    expect((await store.getRecord(skillId))?.status).toBe('frozen');
    expect(await decideItem(store, again.reviewItems[0]?.review_id ?? '', { decision: 'reject', reviewer: 'bo', note: 'flaky runner' }, days(4))).toContain('reactivated');
    expect(await store.getRecord(skillId)).toMatchObject({ status: 'active', version: 6 });
    store.close();
  });
});
