/**
 * The `command` executor end to end, offline: a fake CLI agent (official SDKs) runs per
 * path behind the run's gateway against `sim serve`; the four arms run budget-fair.
 */
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { readJsonl } from '../src/ledger/jsonl-reader.js';
import type { CallRecord, ResultRecord } from '../src/ledger/records.js';
import { runPaths } from '../src/ledger/run-dir.js';
import { startSimServer, type SimServer } from '../src/providers/sim/index.js';
import { runExperiment } from '../src/runner/run-experiment.js';
import { writeExperiment } from './support/experiment.js';

const AGENT = fileURLToPath(new URL('./gateway-fake-agent.mjs', import.meta.url));
const B = 1500;
let sim: SimServer;
beforeAll(async () => {
  sim = await startSimServer({ seed: 7 });
});
afterAll(async () => {
  await sim.close();
});

function executorYaml(sdk: string, extra = ''): string {
  return `executor: { type: command, argv: ["${process.execPath}", "${AGENT}", "{{input}}", --sdk, ${sdk}, --stream], timeout_ms: 60000${extra} }`;
}

describe.each([
  { sdk: 'anthropic', provider: () => `{ protocol: anthropic-messages, base_url: "${sim.url}" }` },
  { sdk: 'openai-responses', provider: () => `{ protocol: openai-responses, base_url: "${sim.url}/v1" }` },
])('four arms through the gateway ($sdk)', ({ sdk, provider }) => {
  test('every agent call is in the run ledger, and no (case, arm) spends more than B', async () => {
    const experiment = writeExperiment({
      provider: provider(),
      budget: `{ total_tokens_per_case: ${B}, per_case_max_tokens: 256, best_of_n: [1, 4] }`,
      extra: executorYaml(sdk),
      cases: 4,
      skills: { baseline: 'Answer arithmetic questions.', candidate: 'Answer arithmetic questions. Explain thoroughly, step by step.' },
    });
    const run = await runExperiment({ configPath: experiment.configPath, outDir: experiment.runsDir, env: {} });
    const paths = runPaths(run.runDir);
    const calls = readJsonl<CallRecord & { key_id: string; tags: Record<string, string> }>(paths.calls).records;
    const results = readJsonl<ResultRecord>(paths.results).records;
    expect(results).toHaveLength(4 * 4);
    expect(calls.length).toBeGreaterThan(0);
    for (const call of calls) {
      expect(call.role).toBe('gateway');
      expect(call.run_id).toBe(run.runId);
      expect(call.tags['path']).toBe(String(call.path));
    }
    const spend = new Map<string, number>();
    for (const call of calls) {
      const key = `${call.case_id}|${call.arm}`;
      spend.set(key, (spend.get(key) ?? 0) + (call.total_tokens ?? 0));
    }
    for (const [key, tokens] of spend) expect(tokens, key).toBeLessThanOrEqual(B);
    for (const result of results) {
      expect(result.over_budget).toBe(false);
      expect(result.paths).toHaveLength(result.n);
    }
    // Per path B/n: at n=4 the paths ran into their share.
    const n4 = calls.filter((c) => c.n === 4);
    expect(n4.every((c) => c.max_tokens <= Math.floor(B / 4))).toBe(true);
    expect(results.filter((r) => r.n === 1).some((r) => r.passed)).toBe(true);
  });
});
