/**
 * Tools fail; runs do not. A tool that throws, one that hangs past its time limit (a module
 * or a command), a command that exits non-zero, and a loop that runs out of turns each end as
 * recorded failures — error steps in the trajectory, failed paths — in a run that finishes.
 */
import { describe, expect, test } from 'vitest';
import type { ResultRecord, ToolStep } from '../src/ledger/records.js';
import { runExperiment } from '../src/runner/run-experiment.js';
import { LOOKUP_PARAMETERS, commandLookup, moduleLookup, writeAgentExperiment } from './support/agent-experiment.js';

const CASES = 4;

async function runWith(tools: string[], options: { toolTimeoutMs?: number; maxTurns?: number } = {}): Promise<{ results: ResultRecord[]; steps: ToolStep[]; status: string }> {
  const experiment = writeAgentExperiment({ provider: '{ preset: sim }', cases: CASES, tools, ...options });
  const run = await runExperiment({ configPath: experiment.configPath, outDir: experiment.runsDir, env: {}, simLatencyScale: 0 });
  expect(run.results).toHaveLength(CASES * 4);
  return { results: run.results, steps: run.results.flatMap((r) => r.paths.flatMap((p) => p.trajectory ?? [])), status: run.manifest.status };
}

describe('failing tools give recorded failures and a finished run', () => {
  test('a tool that throws: error steps the model reads, identical retries marked, failed paths', async () => {
    const { results, steps, status } = await runWith([moduleLookup('broken')]);
    expect(status).toBe('complete');
    expect(steps.length).toBeGreaterThan(0);
    expect(steps.every((s) => s.error === 'threw: inventory database is down')).toBe(true);
    expect(steps.every((s) => s.result_bytes === Buffer.byteLength(`Error: ${s.error ?? ''}`))).toBe(true);
    // The candidate repeats a failed call unchanged: a retry; the baseline never does.
    const retries = (arm: string) => results.filter((r) => r.arm === arm).flatMap((r) => r.paths.flatMap((p) => p.trajectory ?? [])).filter((s) => s.retry).length;
    expect(retries('candidate_single')).toBeGreaterThan(0);
    expect(retries('baseline_single')).toBe(0);
    expect(results.every((r) => !r.passed)).toBe(true);
  });

  test('a module tool that hangs times out, and the loop goes on', async () => {
    const { results, steps, status } = await runWith([moduleLookup('hang')], { toolTimeoutMs: 150 });
    expect(status).toBe('complete');
    expect(steps.length).toBeGreaterThan(0);
    for (const step of steps) {
      expect(step.error).toBe('timed out after 150 ms');
      expect(step.duration_ms).toBeGreaterThanOrEqual(140);
      expect(step.duration_ms).toBeLessThan(3000);
    }
    // After the timeouts the model still answered (it gave up on the lookups): a finished loop.
    expect(results.flatMap((r) => r.paths).every((p) => p.finish_reason === 'stop' && (p.turns ?? 0) >= 2)).toBe(true);
  });

  test('a command tool that hangs is killed at its time limit; one that exits non-zero is an error', async () => {
    const hang = `{ name: lookup, description: Stock, parameters: ${LOOKUP_PARAMETERS}, command: [node, -e, "setInterval(() => {}, 1000)"] }`;
    const hung = await runWith([hang], { toolTimeoutMs: 300 });
    expect(hung.status).toBe('complete');
    expect(hung.steps.length).toBeGreaterThan(0);
    expect(hung.steps.every((s) => s.error === 'timed out after 300 ms' && s.duration_ms < 5000)).toBe(true);

    const failing = `{ name: lookup, description: Stock, parameters: ${LOOKUP_PARAMETERS}, command: [node, -e, "process.stderr.write('db down'); process.exit(4)"] }`;
    const exited = await runWith([failing]);
    expect(exited.steps.every((s) => s.error === 'node exited with 4: db down')).toBe(true);
  });

  test('a working command tool answers like the module', async () => {
    // A node process per tool call: generous time so a loaded machine's slow start is not a timeout.
    const { results, steps } = await runWith([commandLookup()], { toolTimeoutMs: 30_000 });
    expect(steps.some((s) => s.error === undefined)).toBe(true);
    expect(results.filter((r) => r.arm === 'baseline_single').every((r) => r.passed)).toBe(true);
  });

  test('running out of turns fails the path with a reason', async () => {
    const { results } = await runWith([moduleLookup()], { maxTurns: 1 });
    for (const path of results.flatMap((r) => r.paths)) {
      expect(path.finish_reason).toBe('error');
      expect(path.error).toBe('max_turns (1) reached while the model was still calling tools');
      expect(path.turns).toBe(1);
      expect(path.trajectory?.length).toBeGreaterThan(0);
    }
  });
});
