/**
 * DESIGN §1 invariant 1 for multi-turn agents, over real HTTP: every turn of a path gets only
 * what remains of the path's share ⌊B/n⌋ after its prompt as max_tokens, so no (case, arm)
 * ever bills more than B, however many turns and lookups a skill takes — and B binds: paths
 * that cannot fit their next prompt end `budget_exhausted`.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { readJsonl } from '../src/ledger/jsonl-reader.js';
import type { CallRecord, ResultRecord } from '../src/ledger/records.js';
import { runPaths } from '../src/ledger/run-dir.js';
import { startSimServer, type SimServer } from '../src/providers/sim/index.js';
import { runExperiment } from '../src/runner/run-experiment.js';
import { writeAgentExperiment } from './support/agent-experiment.js';

const B = 1500;
const PER_CALL_CAP = 256;
let server: SimServer;
beforeAll(async () => {
  server = await startSimServer({ seed: 9 });
});
afterAll(async () => {
  await server.close();
});

describe.each([
  { name: 'openai-chat', provider: () => `{ protocol: openai-chat, base_url: "${server.url}/v1" }` },
  { name: 'openai-responses', provider: () => `{ protocol: openai-responses, base_url: "${server.url}/v1" }` },
  { name: 'anthropic-messages', provider: () => `{ protocol: anthropic-messages, base_url: "${server.url}" }` },
])('$name', ({ provider }) => {
  test('Σ tokens ≤ B per (case, arm); each turn gets only the remainder; B binds', async () => {
    const experiment = writeAgentExperiment({ provider: provider(), cases: 12, budget: `{ total_tokens_per_case: ${B}, per_case_max_tokens: ${PER_CALL_CAP}, best_of_n: [1, 4] }` });
    const run = await runExperiment({ configPath: experiment.configPath, outDir: experiment.runsDir, env: {} });
    const paths = runPaths(run.runDir);
    const calls = readJsonl<CallRecord>(paths.calls).records;
    const results = readJsonl<ResultRecord>(paths.results).records;
    expect(results).toHaveLength(12 * 4);

    const byUnit = new Map<string, number>();
    const byPath = new Map<string, CallRecord[]>();
    for (const call of calls) {
      const unit = `${call.case_id}|${call.arm}|${call.epoch}`;
      byUnit.set(unit, (byUnit.get(unit) ?? 0) + (call.total_tokens ?? Number.NaN));
      const key = `${unit}|${call.path}`;
      byPath.set(key, [...(byPath.get(key) ?? []), call]);
    }
    for (const [unit, tokens] of byUnit) expect(tokens, unit).toBeLessThanOrEqual(B);
    for (const result of results) {
      expect(result.total_tokens).toBeLessThanOrEqual(B);
      expect(result.over_budget).toBe(false);
    }
    // Turn by turn: prompt + max_tokens never exceeds what the path has left of ⌊B/n⌋.
    for (const [key, pathCalls] of byPath) {
      const share = Math.floor(B / (pathCalls[0]?.n ?? 1));
      let spent = 0;
      for (const call of pathCalls) {
        expect(call.max_tokens, key).toBeLessThanOrEqual(PER_CALL_CAP);
        expect((call.prompt_tokens ?? Infinity) + call.max_tokens, key).toBeLessThanOrEqual(share - spent);
        spent += call.total_tokens ?? Infinity;
      }
      expect(spent, key).toBeLessThanOrEqual(share);
    }
    // B binds at n=4: later turns get less than the per-call cap, and some paths run out.
    const n4 = calls.filter((c) => c.n === 4);
    expect(n4.some((c) => c.max_tokens < PER_CALL_CAP)).toBe(true);
    const exhausted = results.flatMap((r) => r.paths).filter((p) => p.finish_reason === 'budget_exhausted');
    expect(exhausted.length).toBeGreaterThan(0);
    for (const path of exhausted) expect(path.passed).toBe(false);
    expect(results.some((r) => r.budget_exhausted && r.n === 4)).toBe(true);
  });
});
