/**
 * Fail fast (issue 25, item 4): a provider on a closed port, or a base URL without /v1 that
 * answers 404, stops the run after the first 10 attempts with one cause and the `doctor`
 * command — not minutes of retries over every path ending `invalid`.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { readJsonl } from '../src/ledger/jsonl-reader.js';
import { startSimServer, type SimServer } from '../src/providers/sim/index.js';
import { runCli } from './support/cli.js';
import { writeExperiment } from './support/experiment.js';

async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** The experiment with the default retry policy (the support file's is made fast for other tests). */
function withDefaultRetries(configPath: string): void {
  writeFileSync(configPath, readFileSync(configPath, 'utf8').replace(/^retries: .*$/m, ''));
}

let sim: SimServer;
beforeAll(async () => {
  sim = await startSimServer({ seed: 2 });
});
afterAll(async () => {
  await sim.close();
});

test('a closed port fails in < 5 s with the cause and the doctor command', async () => {
  const port = await closedPort();
  const experiment = writeExperiment({ provider: `{ protocol: openai-chat, base_url: 'http://127.0.0.1:${port}/v1', api_key_env: FF_KEY }`, cases: 100 });
  withDefaultRetries(experiment.configPath);
  const started = Date.now();
  const run = await runCli(['run', experiment.configPath, '--out', experiment.runsDir, '--run-id', 'closed', '--yes'], { env: { FF_KEY: 'sk-test' } });
  const elapsed = Date.now() - started;
  expect(run.code).toBe(2);
  expect(run.stderr).toContain('the first 10 calls all failed alike (connection error');
  expect(run.stderr).toContain(`isobudget doctor ${experiment.configPath}`);
  expect(run.stderr).not.toContain('    at ');
  expect(elapsed).toBeLessThan(5000);
  // Stopped, not retried over 400 units: only the attempts in flight when it tripped are booked.
  const dir = join(experiment.runsDir, 'closed');
  const calls = ['calls.jsonl', 'interrupted-calls.jsonl'].flatMap((file) => readJsonl(join(dir, file)).records);
  expect(calls.length).toBeLessThan(40);
  const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as { status: string };
  expect(manifest.status).toBe('interrupted');
});

test('a 404 from a base URL without /v1 hints the fix', async () => {
  const experiment = writeExperiment({ provider: `{ protocol: openai-chat, base_url: '${sim.url}', api_key_env: FF_KEY }`, cases: 20 });
  const run = await runCli(['run', experiment.configPath, '--out', experiment.runsDir, '--yes'], { env: { FF_KEY: 'sk-test' } });
  expect(run.code).toBe(2);
  expect(run.stderr).toContain('the first 10 calls all failed alike');
  expect(run.stderr).toContain(`try ${sim.url}/v1`);
});
