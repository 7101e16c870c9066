/**
 * The agent executor end to end over real HTTP to `sim serve`, for OpenAI chat tool calls,
 * OpenAI Responses function calls and Anthropic tool use: every arm finishes, the model's
 * turns are `generate` call records carrying usage, tool executions are the trajectory, and
 * the candidate's redundant habits show up there — with the same answers as the baseline.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { readJsonl } from '../src/ledger/jsonl-reader.js';
import type { CallRecord, ResultRecord } from '../src/ledger/records.js';
import { runPaths } from '../src/ledger/run-dir.js';
import { startSimServer, type SimServer } from '../src/providers/sim/index.js';
import { runExperiment } from '../src/runner/run-experiment.js';
import { writeAgentExperiment } from './support/agent-experiment.js';

let server: SimServer;
beforeAll(async () => {
  server = await startSimServer({ seed: 5 });
});
afterAll(async () => {
  await server.close();
});

const CASES = 9;

describe.each([
  { protocol: 'openai-chat', provider: () => `{ protocol: openai-chat, base_url: "${server.url}/v1" }` },
  { protocol: 'openai-responses', provider: () => `{ protocol: openai-responses, base_url: "${server.url}/v1" }` },
  { protocol: 'anthropic-messages', provider: () => `{ protocol: anthropic-messages, base_url: "${server.url}" }` },
])('$protocol', ({ protocol, provider }) => {
  test('tool loops finish with trajectories; the candidate is redundant, not better', async () => {
    const experiment = writeAgentExperiment({ provider: provider(), cases: CASES });
    const before = server.stats.byPath[protocol === 'anthropic-messages' ? '/v1/messages' : protocol === 'openai-responses' ? '/v1/responses' : '/v1/chat/completions'] ?? 0;
    const run = await runExperiment({ configPath: experiment.configPath, outDir: experiment.runsDir, env: {} });
    const paths = runPaths(run.runDir);
    const calls = readJsonl<CallRecord>(paths.calls).records;
    const results = readJsonl<ResultRecord>(paths.results).records;
    expect(run.manifest.status).toBe('complete');
    expect(results).toHaveLength(CASES * 4);
    expect(calls.every((c) => c.role === 'generate' && c.protocol === protocol && c.total_tokens !== undefined && !c.usage_missing)).toBe(true);
    expect(calls.length, 'every model turn went over HTTP').toBe((server.stats.byPath[protocol === 'anthropic-messages' ? '/v1/messages' : protocol === 'openai-responses' ? '/v1/responses' : '/v1/chat/completions'] ?? 0) - before);

    for (const result of results) {
      expect(result.calls, 'one call record per model turn').toBe(result.paths.reduce((sum, p) => sum + (p.turns ?? 0), 0));
      for (const path of result.paths) {
        expect(path.turns).toBeGreaterThanOrEqual(2);
        expect(path.trajectory?.length).toBeGreaterThan(0);
        for (const step of path.trajectory ?? []) {
          expect(step.tool).toBe('lookup');
          expect(step.args_hash).toMatch(/^[0-9a-f]{16}$/);
          expect(step.result_bytes).toBeGreaterThan(0);
          expect(step.turn).toBeGreaterThanOrEqual(1);
          expect(step.turn).toBeLessThan(path.turns ?? 0);
        }
      }
    }
    // Results land in completion order: pair them by case.
    const single = (arm: string) => results.filter((r) => r.arm === arm).sort((a, b) => a.case_id.localeCompare(b.case_id));
    const baseline = single('baseline_single');
    const candidate = single('candidate_single');
    // Same luck, same answers: the habits change the cost, not the outcome.
    expect(candidate.map((r) => r.passed)).toEqual(baseline.map((r) => r.passed));
    expect(baseline.filter((r) => r.passed).length).toBeGreaterThanOrEqual(CASES - 2);
    const steps = (rows: ResultRecord[]) => rows.flatMap((r) => r.paths.flatMap((p) => p.trajectory ?? []));
    expect(steps(candidate).length).toBeGreaterThan(1.5 * steps(baseline).length);
    expect(steps(baseline).some((s) => s.retry)).toBe(false);
    const tokens = (rows: ResultRecord[]) => rows.reduce((sum, r) => sum + (r.total_tokens ?? Number.NaN), 0);
    expect(tokens(candidate)).toBeGreaterThan(1.3 * tokens(baseline));
  });
});
