/**
 * `evolve --failures EVENTS.jsonl`: production failures reach the diagnosis train-side only —
 * those the split hash assigns to train (and `sampling` ones) are shown to the proposer with
 * the budget and n they failed at; those that belong to val or test, or repeat a case, never are.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { splitOf } from '../src/datasets/failures/plan-failures.js';
import { runEvolve } from '../src/evolve/loop.js';
import type { Diagnosis } from '../src/evolve/types.js';
import { copyEvolveExample } from './support/evolve.js';

test('production failures in the diagnosis: train-side only, with budget and n', async () => {
  const dir = copyEvolveExample();
  const shares = { train: 0.5, val: 0.25, test: 0.25 };
  const inputs = Array.from({ length: 40 }, (_, i) => `Normalize this date to ISO 8601 (YYYY-MM-DD): ${2000 + i}-W${String(10 + (i % 40)).padStart(2, '0')}-3 (ticket ${i})`);
  const valInput = (JSON.parse(readFileSync(join(dir, 'data', 'val.jsonl'), 'utf8').split('\n')[0] ?? '{}') as { input: string }).input;
  const events = [...inputs, valInput].map((input, i) => JSON.stringify({ input, expected: '2000-01-01', passed: false, n: 4, budget: 1000, tokens: 700, latency_ms: 80, case_id: `t${i}` }));
  writeFileSync(join(dir, 'events.jsonl'), `${events.join('\n')}\n`);
  const result = await runEvolve({ configPath: join(dir, 'experiment.yaml'), outDir: join(dir, 'evolve'), evolveId: 'fail', storePath: join(dir, 'memory.sqlite'), cwd: dir, env: {}, failuresFile: join(dir, 'events.jsonl'), flags: { rounds: 1, candidates: 1 }, simLatencyScale: 0.3 });
  const diagnosis = JSON.parse(readFileSync(join(result.dir, 'round-1', 'diagnosis.json'), 'utf8')) as Diagnosis;
  const train = inputs.filter((input) => splitOf(input.toLowerCase(), shares) === 'train');
  const elsewhere = inputs.filter((input) => splitOf(input.toLowerCase(), shares) !== 'train');
  expect(train.length).toBeGreaterThan(5);
  expect(elsewhere.length).toBeGreaterThan(5);
  expect(diagnosis.production).toEqual({ shown: 6, not_train: elsewhere.length, duplicates: 1 });
  const shown = diagnosis.examples.filter((e) => e.source === 'production');
  expect(shown).toHaveLength(6);
  for (const example of shown) {
    expect(train).toContain(example.input);
    expect(example).toMatchObject({ budget: 1000, n: 4 });
  }
  const proposerInput = readFileSync(join(result.dir, 'round-1', 'proposer-input.md'), 'utf8');
  for (const input of shown) expect(proposerInput).toContain(JSON.stringify(input.input).slice(1, -1));
  for (const input of [...elsewhere, valInput]) expect(proposerInput).not.toContain(input);
}, 120_000);
