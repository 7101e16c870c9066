/**
 * The gate's control flow on injected test runs (verdicts made by hand); the end-to-end test
 * in test/memory-e2e.test.ts runs the real example through it.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test, vi } from 'vitest';
import { loadConfig } from '../config/load.js';
import { fileSha256 } from '../datasets/index.js';
import { ingestRun } from '../memory/ingest-run.js';
import { copyExample, days, fakeRun, T0, tempStore, type FakeVerdictSpec } from '../memory/test-support/fixtures.js';
import type { MemoryStore } from '../memory/store/spec.js';
import { decideItem } from '../review/queue.js';
import { runGate, type GateOptions } from './run-gate.js';

async function setup(edit?: (dir: string) => void) {
  const example = copyExample('date-parser');
  edit?.(example.dir);
  const config = await loadConfig(example.configPath);
  const testSha = await fileSha256(join(example.dir, 'data', 'test.jsonl'));
  return { ...example, config, testSha };
}

type Setup = Awaited<ReturnType<typeof setup>>;

/** Screens the example's candidate on val (a real_evolution val verdict ingested). */
async function screen(store: MemoryStore, s: Setup, runId: string, now = T0): Promise<void> {
  await ingestRun(fakeRun({ run_id: runId, verdict: 'real_evolution', candidate_id: s.config.variants.candidate.id, baseline_id: s.config.variants.baseline.id }, s.config), store, now);
}

function gate(store: MemoryStore, s: Setup, test: Partial<FakeVerdictSpec> & { run_id: string }, options: Partial<GateOptions> = {}) {
  const runTest = vi.fn(async () => fakeRun({ verdict: 'real_evolution', split: 'test', candidate_id: s.config.variants.candidate.id, baseline_id: s.config.variants.baseline.id, testSha: s.testSha, ...test }, s.config));
  return { runTest, outcome: runGate({ configPath: s.configPath, store, outDir: join(s.dir, 'runs'), now: () => days(1), runTest, ...options }) };
}

/** Turns the candidate into version `version` (id skill-date-parser-v<version>) with front matter `extra` (e.g. a policy block). */
function bump(version: number, extra: string) {
  return (dir: string): void => {
    const v3 = readFileSync(join(dir, 'skills', 'v3.md'), 'utf8');
    writeFileSync(join(dir, 'skills', `v${version}.md`), v3.replace('version: 3\n', `version: ${version}\n${extra}`).replace('## Examples', '- Keep the answer on one line.\n\n## Examples'));
    const yaml = readFileSync(join(dir, 'experiment.yaml'), 'utf8');
    writeFileSync(join(dir, 'experiment.yaml'), yaml.replace('id: skill-date-parser-v3', `id: skill-date-parser-v${version}`).replace('skills/v3.md', `skills/v${version}.md`));
  };
}

describe('the five-layer gate', () => {
  test('a candidate not screened on val never touches the test split', async () => {
    const { store } = tempStore();
    const s = await setup();
    const { runTest, outcome } = gate(store, s, { run_id: 'bf-test-1' });
    const result = await outcome;
    expect(runTest).not.toHaveBeenCalled();
    expect(result.gate.status).toBe('failed');
    expect(result.layers.map((l) => [l.layer, l.status])).toEqual([[1, 'passed'], [2, 'skipped'], [3, 'failed'], [4, 'skipped'], [5, 'skipped']]);
    expect(result.layers[2]?.summary).toContain('not screened: no skill_candidate for skill-date-parser-v3');
    expect(await store.listTestUses()).toEqual([]);
    store.close();
  });

  test('layers 1–4 pass → queued for a human; every layer and the test-split use are recorded; approval promotes', async () => {
    const { store } = tempStore();
    const s = await setup();
    await screen(store, s, 'bf-val-1');
    const result = await gate(store, s, { run_id: 'bf-test-1' }).outcome;
    expect(result.gate.status).toBe('awaiting_review');
    expect(result.review?.reasons).toEqual(['promotion to skill: human confirmation (layer 5)', 'new domain: no skill named date-parser has been approved before']);
    expect((await store.listLayers(result.gate.gate_id)).map((l) => [l.layer, l.name, l.status])).toEqual([[1, 'format', 'passed'], [2, 'regression', 'passed'], [3, 'significance', 'passed'], [4, 'budget', 'passed'], [5, 'human', 'pending']]);
    expect((await store.listTestUses(s.testSha)).map((u) => [u.run_id, u.gate_id])).toEqual([['bf-test-1', result.gate.gate_id]]);
    expect(result.review?.card.diff).toContain('+- Two-digit years: 00–49 → 20xx, 50–99 → 19xx.');
    // The test run is evidence on the candidate.
    expect((await store.getRecord('mem-date-parser-001'))?.run_ids).toEqual(['bf-val-1', 'bf-test-1']);

    const message = await decideItem(store, result.review?.review_id ?? '', { decision: 'approve', reviewer: 'ana', note: 'rules are right' }, days(2));
    expect(message).toContain('skill mem-date-parser-002 v1 (date-parser)');
    expect((await store.getGate(result.gate.gate_id))?.status).toBe('passed');
    const layer5 = (await store.listLayers(result.gate.gate_id)).filter((l) => l.layer === 5);
    expect(layer5.map((l) => l.status)).toEqual(['pending', 'passed']);
    expect(layer5[1]?.details).toMatchObject({ reviewer: 'ana', note: 'rules are right', decided_at: days(2).toISOString() });
    expect(await store.getRecord('mem-date-parser-002')).toMatchObject({ type: 'skill', status: 'active', run_ids: ['bf-val-1', 'bf-test-1'], candidate_id: 'skill-date-parser-v3' });
    expect((await store.getRecord('mem-date-parser-001'))?.status).toBe('retired');
    store.close();
  });

  test('a budget-policy change cannot pass without a recorded human approval, even with --auto-confirm; without it the stable domain auto-confirms', async () => {
    const { store } = tempStore();
    const base = await setup();
    await screen(store, base, 'bf-val-1');
    const first = await gate(store, base, { run_id: 'bf-test-1' }).outcome;
    await decideItem(store, first.review?.review_id ?? '', { decision: 'approve', reviewer: 'ana', note: null }, days(1));

    const policy = await setup(bump(4, 'policy: { best_of_n: 8, retries: 3 }\n'));
    await screen(store, policy, 'bf-val-2');
    const held = await gate(store, policy, { run_id: 'bf-test-2' }, { autoConfirm: true }).outcome;
    expect(held.gate.status).toBe('awaiting_review');
    expect(held.gate.needs_human).toEqual(['promotion to skill: human confirmation (layer 5)', 'budget policy change: best_of_n 1 → 8 (Best-of-N switched on)', 'budget policy change: retries 1 → 3 (more spend allowed)']);
    expect(held.layers.find((l) => l.layer === 4)?.summary).toContain('budget policy changes need a human: best_of_n 1 → 8');
    expect((await store.getRecord('mem-date-parser-002'))?.candidate_id).toBe('skill-date-parser-v3');
    await decideItem(store, held.review?.review_id ?? '', { decision: 'approve', reviewer: 'bo', note: 'n=8 is fine for this tool' }, days(3));
    const approvedLayer = (await store.listLayers(held.gate.gate_id)).find((l) => l.layer === 5 && l.status === 'passed');
    expect(approvedLayer?.details).toMatchObject({ reviewer: 'bo', reasons: held.gate.needs_human });
    const skill = await store.getRecord('mem-date-parser-002');
    expect(skill).toMatchObject({ version: 2, candidate_id: 'skill-date-parser-v4' });
    expect((await store.listVersions('mem-date-parser-002'))[1]?.diff).toContain('+policy: { best_of_n: 8, retries: 3 }');
    expect((await store.listDecisions()).map((d) => [d.reviewer, d.decision])).toEqual([['ana', 'approve'], ['bo', 'approve']]);

    const plain = await setup(bump(5, ''));
    await screen(store, plain, 'bf-val-3');
    const auto = await gate(store, plain, { run_id: 'bf-test-3' }, { autoConfirm: true }).outcome;
    expect(auto.gate.status).toBe('passed');
    expect(auto.layers.find((l) => l.layer === 5)?.summary).toContain('approved by auto-confirm');
    expect(await store.getRecord('mem-date-parser-002')).toMatchObject({ version: 3, candidate_id: 'skill-date-parser-v5' });
    store.close();
  });

  test('a regression on test fails layer 2 and freezes the candidate at once', async () => {
    const { store } = tempStore();
    const s = await setup();
    await screen(store, s, 'bf-val-1');
    const result = await gate(store, s, { run_id: 'bf-test-1', verdict: 'regression', delta: 0.1, ci95: [0.05, 0.15], regressionWorse: true }).outcome;
    expect(result.gate.status).toBe('failed');
    expect(result.layers.find((l) => l.layer === 2)?.summary).toContain('regression set worse: 1.000 → 0.700');
    expect((await store.getRecord('mem-date-parser-001'))?.status).toBe('frozen');
    expect((await store.listReviewItems(['pending'])).map((i) => i.kind)).toEqual(['regression']);
    store.close();
  });

  test('a trial (--limit) passes the selection to the test run and never promotes, even with --auto-confirm; its use is counted', async () => {
    const { store } = tempStore();
    const s = await setup();
    await screen(store, s, 'bf-val-1');
    const { runTest, outcome } = gate(store, s, { run_id: 'bf-test-1' }, { cases: { kind: 'limit', limit: 5 }, autoConfirm: true });
    const result = await outcome;
    expect(runTest).toHaveBeenCalledWith(s.configPath, { kind: 'limit', limit: 5 });
    expect(result.trial).toMatchObject({ cases: 5, of: 200, selection: '--limit 5' });
    expect(result.gate.status).toBe('failed');
    expect(result.review).toBeUndefined();
    expect(result.layers.map((l) => [l.layer, l.status])).toEqual([[1, 'passed'], [2, 'passed'], [3, 'passed'], [4, 'passed'], [5, 'skipped']]);
    expect(result.layers[4]?.summary).toBe('not run: a gate on 5 of 200 test cases (--limit 5) is a trial: run it on the whole test split to promote');
    expect(await store.listReviewItems()).toEqual([]);
    expect((await store.getRecord('mem-date-parser-001'))?.run_ids).toEqual(['bf-val-1']);
    expect((await store.listTestUses(s.testSha)).map((u) => [u.run_id, u.gate_id])).toEqual([['bf-test-1', result.gate.gate_id]]);
    store.close();
  });

  test('budget and significance failures; the test split use count caps re-gating', async () => {
    const { store } = tempStore();
    const s = await setup();
    await screen(store, s, 'bf-val-1');
    const costly = await gate(store, s, { run_id: 'bf-test-1', tokensGrowth: 1.4 }).outcome;
    expect(costly.layers.find((l) => l.layer === 4)).toMatchObject({ status: 'failed', summary: 'tokens_per_success ×1.40 > 1.15' });
    const weak = await gate(store, s, { run_id: 'bf-test-2', delta: 0.09, ci95: [-0.01, 0.19] }).outcome;
    expect(weak.layers.find((l) => l.layer === 3)?.summary).toMatch(/the CI does not exclude 0 — this test split has now been used 2 times/);
    const capped = gate(store, s, { run_id: 'bf-test-3' }, { maxTestUses: 2 });
    const result = await capped.outcome;
    expect(capped.runTest).not.toHaveBeenCalled();
    expect(result.layers.find((l) => l.layer === 3)?.summary).toContain('the test split was already used 2 times (--max-test-uses 2)');
    store.close();
  });
});
