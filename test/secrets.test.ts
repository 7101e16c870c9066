/**
 * DESIGN §1 invariant 6: an API key read from the env var the config names never appears in
 * any file under runs/ or in any output — on success and on failure.
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startSimServer, type SimServer } from '../src/providers/sim/index.js';
import { runCli } from './support/cli.js';
import { readTree, writeExperiment } from './support/experiment.js';

const KEY = 'sk-test-RECOGNISABLE-0123456789abcdefXYZ';
let server: SimServer;
beforeAll(async () => {
  server = await startSimServer({ seed: 1, requireApiKey: KEY });
});
afterAll(async () => {
  await server.close();
});

test.each([
  { protocol: 'openai-chat', base: '/v1' },
  { protocol: 'anthropic-messages', base: '' },
])('the key never leaves the process ($protocol)', async ({ protocol, base }) => {
  const experiment = writeExperiment({ provider: `{ protocol: ${protocol}, base_url: "${server.url}${base}", api_key_env: ISOBUDGET_TEST_KEY }`, cases: 6 });
  const ok = await runCli(['run', experiment.configPath, '--out', experiment.runsDir], { env: { ISOBUDGET_TEST_KEY: KEY } });
  expect(ok.code, ok.stderr).toBe(0);
  expect(ok.stdout).toContain('baseline_single');
  // The key really went upstream (the server demands it) …
  expect(server.lastHeaders().some((h) => h.authorization === `Bearer ${KEY}` || h['x-api-key'] === KEY)).toBe(true);
  // … and nowhere else.
  const wrong = await runCli(['doctor', experiment.configPath, '--out', experiment.runsDir], { env: { ISOBUDGET_TEST_KEY: `${KEY}-wrong` } });
  expect(wrong.code).not.toBe(0);
  const doctor = await runCli(['doctor', experiment.configPath, '--out', experiment.runsDir], { env: { ISOBUDGET_TEST_KEY: KEY } });
  expect(doctor.code, doctor.stderr).toBe(0);
  expect(doctor.stdout).toMatch(/total_tokens: \d+/);
  const runDir = ok.stdout.match(/ledger: (\S+)/)?.[1] ?? '';
  const index = await runCli(['ledger', 'index', runDir]);
  expect(index.code, index.stderr).toBe(0);
  const files = readTree(experiment.runsDir);
  expect(files.map((f) => f.file.split('/').pop())).toEqual(expect.arrayContaining(['calls.jsonl', 'doctor.jsonl', 'ledger.sqlite', 'manifest.json', 'results.jsonl', 'verdict.json']));
  for (const { file, text } of files) expect(text.includes(KEY), file).toBe(false);
  for (const output of [ok.stdout, ok.stderr, wrong.stdout, wrong.stderr, doctor.stdout, doctor.stderr]) expect(output.includes(KEY)).toBe(false);
});

test('a missing key env var is named, with how to set it, and no run directory is left', async () => {
  const experiment = writeExperiment({ provider: '{ protocol: openai-chat, base_url: "https://api.example.invalid/v1", api_key_env: ISOBUDGET_ABSENT_KEY }', cases: 3 });
  const result = await runCli(['run', experiment.configPath, '--out', experiment.runsDir]);
  expect(result.code).toBe(2);
  expect(result.stderr).toContain('ISOBUDGET_ABSENT_KEY');
  expect(() => readTree(experiment.runsDir)).toThrow();
});
