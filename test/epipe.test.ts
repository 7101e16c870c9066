/**
 * A reader that goes away (`| head -1`) ends a command quietly: exit 0, no EPIPE stack
 * (issue 25, item 6). The pipe is closed before the command writes, so every write fails.
 */
import { spawn } from 'node:child_process';
import { dirname } from 'node:path';
import { beforeAll, expect, test } from 'vitest';
import { BIN, runCli } from './support/cli.js';
import { writeExperiment } from './support/experiment.js';

let runsDir = '';
beforeAll(async () => {
  const experiment = writeExperiment({ provider: '{ preset: sim }', cases: 30 });
  runsDir = experiment.runsDir;
  const run = await runCli(['run', experiment.configPath, '--out', runsDir, '--run-id', 'piped', '--quiet', '--no-report', '--sim-latency-scale', '0']);
  expect(run.code, run.stderr).toBe(0);
}, 60_000);

function closedReader(args: string[]): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    // From the experiment's folder: `latest` is the newest run under ./runs.
    const child = spawn(process.execPath, [BIN, ...args], { cwd: dirname(runsDir), env: { PATH: process.env.PATH }, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.destroy();
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stderr }));
  });
}

test.each([
  ['analyze', ['analyze', 'latest']],
  ['ledger show', ['ledger', 'show', 'latest']],
  ['runs list', ['runs', 'list']],
])('%s into a closed pipe exits 0 without a stack', async (_name, args) => {
  const result = await closedReader(args);
  expect(result.stderr).not.toMatch(/EPIPE|Error| {4}at /);
  expect(result.code).toBe(0);
});
