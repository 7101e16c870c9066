/** n_mode native against an upstream that rejects `n`: falls back to parallel calls, recorded. */
import { afterAll, beforeAll, expect, test } from 'vitest';
import { readJsonl } from '../src/ledger/jsonl-reader.js';
import type { CallRecord, ResultRecord } from '../src/ledger/records.js';
import { runPaths } from '../src/ledger/run-dir.js';
import { startSimServer, type SimServer } from '../src/providers/sim/index.js';
import { runExperiment } from '../src/runner/run-experiment.js';
import { writeExperiment } from './support/experiment.js';

let server: SimServer;
beforeAll(async () => {
  server = await startSimServer({ seed: 2, rejectNativeN: true });
});
afterAll(async () => {
  await server.close();
});

test('a rejected native n falls back to parallel calls, once, and says so', async () => {
  const experiment = writeExperiment({ provider: `{ protocol: openai-chat, base_url: "${server.url}/v1" }`, extra: 'n_mode: native', cases: 5 });
  const run = await runExperiment({ configPath: experiment.configPath, outDir: experiment.runsDir, env: {}, concurrency: 1 });
  const calls = readJsonl<CallRecord>(runPaths(run.runDir).calls).records;
  const results = readJsonl<ResultRecord>(runPaths(run.runDir).results).records;
  const rejected = calls.filter((c) => c.note === 'native_n_rejected');
  // Units already in flight when the first rejection lands may each meet it once (2 lanes here).
  expect(rejected.length).toBeGreaterThanOrEqual(1);
  expect(rejected.length).toBeLessThanOrEqual(2);
  for (const call of rejected) expect(call).toMatchObject({ status: 400, paths: 4, retried: false });
  expect(run.manifest.events.filter((e) => e.message.includes('falling back to parallel'))).toHaveLength(1);
  // After the fallback every n=4 unit is four single-path calls, and all paths are answered.
  const n4 = results.filter((r) => r.n === 4);
  expect(n4).toHaveLength(10);
  for (const result of n4) expect(result.paths.every((p) => p.finish_reason === 'stop')).toBe(true);
  expect(calls.filter((c) => c.n === 4 && c.error === undefined).every((c) => c.paths === 1)).toBe(true);
});
