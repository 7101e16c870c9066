/**
 * DESIGN §1 invariant 1 over real HTTP: with a budget small enough to bind, no (case, arm)
 * ever bills more than B — for native n, parallel n, and the Anthropic protocol.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { readJsonl } from '../src/ledger/jsonl-reader.js';
import type { CallRecord, ResultRecord } from '../src/ledger/records.js';
import { runPaths } from '../src/ledger/run-dir.js';
import { startSimServer, type SimServer } from '../src/providers/sim/index.js';
import { runExperiment } from '../src/runner/run-experiment.js';
import { writeExperiment } from './support/experiment.js';

const B = 1200;
let server: SimServer;
beforeAll(async () => {
  server = await startSimServer({ seed: 5 });
});
afterAll(async () => {
  await server.close();
});

describe.each([
  { name: 'openai-chat, native n', provider: () => `{ protocol: openai-chat, base_url: "${server.url}/v1" }`, nMode: 'native' },
  { name: 'openai-chat, parallel n', provider: () => `{ protocol: openai-chat, base_url: "${server.url}/v1" }`, nMode: 'parallel' },
  { name: 'openai-responses', provider: () => `{ protocol: openai-responses, base_url: "${server.url}/v1" }`, nMode: 'native' },
  { name: 'anthropic-messages', provider: () => `{ protocol: anthropic-messages, base_url: "${server.url}" }`, nMode: 'native' },
])('$name', ({ provider, nMode }) => {
  test('Σ total_tokens ≤ B for every (case, arm), and B binds', async () => {
    const experiment = writeExperiment({
      provider: provider(),
      budget: `{ total_tokens_per_case: ${B}, per_case_max_tokens: 256, best_of_n: [1, 8] }`,
      extra: `n_mode: ${nMode}`,
      cases: 10,
      // Thorough answers are long, so paths really run into the per-path cap.
      skills: { baseline: 'Answer arithmetic questions.', candidate: 'Answer arithmetic questions. Explain thoroughly, step by step.' },
    });
    const run = await runExperiment({ configPath: experiment.configPath, outDir: experiment.runsDir, env: {} });
    const paths = runPaths(run.runDir);
    const calls = readJsonl<CallRecord>(paths.calls).records;
    const results = readJsonl<ResultRecord>(paths.results).records;
    expect(results).toHaveLength(10 * 4);
    const spend = new Map<string, number>();
    for (const call of calls) {
      expect(call.total_tokens, 'the sim always reports usage').toBeTypeOf('number');
      const key = `${call.case_id}|${call.arm}|${call.epoch}`;
      spend.set(key, (spend.get(key) ?? 0) + (call.total_tokens ?? 0));
    }
    expect(spend.size).toBe(40);
    for (const [key, tokens] of spend) expect(tokens, key).toBeLessThanOrEqual(B);
    for (const result of results) {
      expect(result.total_tokens).toBeLessThanOrEqual(B);
      expect(result.over_budget).toBe(false);
    }
    // B must actually bind at n=8: the per-path cap is far below per_case_max_tokens.
    const n8 = calls.filter((c) => c.n === 8);
    expect(n8.length).toBeGreaterThan(0);
    for (const call of n8) expect(call.max_tokens).toBeLessThan(256);
    expect(results.some((r) => r.budget_exhausted), 'some path ran into the cap B imposed').toBe(true);
    const arms = run.manifest.arms.filter((a) => a.n === 8);
    expect(arms.every((a) => a.binding)).toBe(true);
  });
});
