/** The gate on a candidate the memory already decided (issue 24 item 6): promoted, or a negative pattern. */
import { join } from 'node:path';
import { expect, test, vi } from 'vitest';
import { loadConfig } from '../config/load.js';
import { fileSha256 } from '../datasets/index.js';
import { ingestRun } from '../memory/ingest-run.js';
import { copyExample, days, fakeRun, T0, tempStore, type FakeVerdictSpec } from '../memory/test-support/fixtures.js';
import type { MemoryStore } from '../memory/store/spec.js';
import { decideItem } from '../review/queue.js';
import { runGate } from './run-gate.js';

async function setup() {
  const example = copyExample('date-parser');
  const config = await loadConfig(example.configPath);
  return { ...example, config, testSha: await fileSha256(join(example.dir, 'data', 'test.jsonl')) };
}

type Setup = Awaited<ReturnType<typeof setup>>;

function gate(store: MemoryStore, s: Setup, test: Partial<FakeVerdictSpec> & { run_id: string }, now = days(1)) {
  const runTest = vi.fn(async () => fakeRun({ verdict: 'real_evolution', split: 'test', candidate_id: s.config.variants.candidate.id, baseline_id: s.config.variants.baseline.id, testSha: s.testSha, ...test }, s.config));
  return { runTest, outcome: runGate({ configPath: s.configPath, store, outDir: join(s.dir, 'runs'), now: () => now, runTest }) };
}

test('a candidate approved before is "already promoted" (gate passed, the test split not run again)', async () => {
  const { store } = tempStore();
  const s = await setup();
  await ingestRun(fakeRun({ run_id: 'bf-val-1', verdict: 'real_evolution', candidate_id: s.config.variants.candidate.id, baseline_id: s.config.variants.baseline.id }, s.config), store, T0);
  const first = await gate(store, s, { run_id: 'bf-test-1' }).outcome;
  await decideItem(store, first.review?.review_id ?? '', { decision: 'approve', reviewer: 'ana', note: null }, days(2));
  const again = gate(store, s, { run_id: 'bf-test-2' }, days(3));
  const result = await again.outcome;
  expect(again.runTest).not.toHaveBeenCalled();
  expect(result.gate.status).toBe('passed');
  const layer3 = result.layers.find((l) => l.layer === 3);
  expect(layer3?.summary).toMatch(/^already promoted: skill-date-parser-v3 is skill mem-date-parser-002 v1 \(approved by ana in gate-\d+\)/);
  expect(result.layers.map((l) => l.summary).join('\n')).not.toContain('not screened');
  expect((await store.listTestUses(s.testSha)).map((u) => u.run_id)).toEqual(['bf-test-1']);
  store.close();
});

test('a budget_leakage candidate is "remembered as a negative pattern — not promotable" (failed, no test-split use)', async () => {
  const { store } = tempStore();
  const s = await setup();
  await ingestRun(fakeRun({ run_id: 'bf-val-1', verdict: 'budget_leakage', delta: 0.01, ci95: [-0.03, 0.05], bestOfN: { n: 8, delta: 0.12, bestofnRatio: 5.8 }, candidate_id: s.config.variants.candidate.id, baseline_id: s.config.variants.baseline.id }, s.config), store, T0);
  const { runTest, outcome } = gate(store, s, { run_id: 'bf-test-1' });
  const result = await outcome;
  expect(runTest).not.toHaveBeenCalled();
  expect(result.gate.status).toBe('failed');
  expect(result.layers.find((l) => l.layer === 3)).toMatchObject({ status: 'failed', summary: expect.stringMatching(/^remembered as a negative pattern — not promotable: mem-date-parser-\d+ \(.*run bf-val-1\)/) });
  expect(await store.listTestUses()).toEqual([]);
  store.close();
});
