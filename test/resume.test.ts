/**
 * Kill a run with SIGKILL mid-way, resume it, and get exactly the results of an
 * uninterrupted run with the same seed — no call duplicated, none lost.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { readJsonl } from '../src/ledger/jsonl-reader.js';
import type { CallRecord, ResultRecord } from '../src/ledger/records.js';
import { runCli } from './support/cli.js';
import { writeExperiment } from './support/experiment.js';

function comparable(results: ResultRecord[]): string[] {
  return results
    .map((r) => JSON.stringify([r.split, r.case_id, r.arm, r.epoch, r.passed, r.passes, r.total_tokens, r.paths.map((p) => [p.output, p.passed, p.finish_reason])]))
    .sort();
}

function callKeys(calls: CallRecord[]): string[] {
  return calls.map((c) => `${c.case_id}|${c.arm}|${c.epoch}|${c.path}|${c.attempt}`).sort();
}

test('SIGKILL mid-run, then --resume, equals an uninterrupted run', async () => {
  const experiment = writeExperiment({ provider: '{ preset: sim }', cases: 40, extra: 'n_mode: parallel' });
  const reference = await runCli(['run', experiment.configPath, '--out', experiment.runsDir, '--run-id', 'reference', '--quiet', '--concurrency', '4', '--sim-latency-scale', '0.2']);
  expect(reference.code, reference.stderr).toBe(0);

  const runDir = join(experiment.runsDir, 'killed');
  const results = join(runDir, 'results.jsonl');
  const killed = await runCli(['run', experiment.configPath, '--out', experiment.runsDir, '--run-id', 'killed', '--quiet', '--concurrency', '4', '--sim-latency-scale', '0.5'], {
    onSpawn: (child) => {
      const timer = setInterval(() => {
        // Kill once a good part, but not all, of the ledger is on disk.
        const lines = existsSync(results) ? readFileSync(results, 'utf8').split('\n').length - 1 : 0;
        if (lines >= 40) {
          clearInterval(timer);
          child.kill('SIGKILL');
        }
      }, 5);
    },
  });
  expect(killed.signal).toBe('SIGKILL');
  const partial = readJsonl<ResultRecord>(results).records.length;
  expect(partial).toBeGreaterThan(0);
  expect(partial).toBeLessThan(160);
  const manifest = JSON.parse(readFileSync(join(runDir, 'manifest.json'), 'utf8')) as { status: string };
  expect(manifest.status).toBe('running');

  const resumed = await runCli(['run', '--resume', runDir, '--quiet', '--concurrency', '4', '--sim-latency-scale', '0']);
  expect(resumed.code, resumed.stderr).toBe(0);
  const finalResults = readJsonl<ResultRecord>(results).records;
  const referenceResults = readJsonl<ResultRecord>(join(experiment.runsDir, 'reference', 'results.jsonl')).records;
  expect(finalResults).toHaveLength(160);
  expect(comparable(finalResults)).toEqual(comparable(referenceResults));

  const calls = readJsonl<CallRecord>(join(runDir, 'calls.jsonl')).records;
  const referenceCalls = readJsonl<CallRecord>(join(experiment.runsDir, 'reference', 'calls.jsonl')).records;
  expect(callKeys(calls)).toEqual(callKeys(referenceCalls));
  expect(new Set(callKeys(calls)).size).toBe(calls.length);
  const finalManifest = JSON.parse(readFileSync(join(runDir, 'manifest.json'), 'utf8')) as { status: string; resumed: number };
  expect(finalManifest).toMatchObject({ status: 'complete', resumed: 1 });
});

test('Ctrl-C (SIGINT) commits finished cases, exits 130, and the run resumes to completion', async () => {
  const experiment = writeExperiment({ provider: '{ preset: sim }', cases: 30 });
  const runDir = join(experiment.runsDir, 'interrupted');
  const results = join(runDir, 'results.jsonl');
  const interrupted = await runCli(['run', experiment.configPath, '--out', experiment.runsDir, '--run-id', 'interrupted', '--concurrency', '2', '--sim-latency-scale', '0.5'], {
    onSpawn: (child) => {
      const timer = setInterval(() => {
        const lines = existsSync(results) ? readFileSync(results, 'utf8').split('\n').length - 1 : 0;
        if (lines >= 10) {
          clearInterval(timer);
          child.kill('SIGINT');
        }
      }, 5);
    },
  });
  expect(interrupted.code).toBe(130);
  expect(interrupted.stderr).toContain(`isobudget run --resume ${runDir}`);
  const manifest = JSON.parse(readFileSync(join(runDir, 'manifest.json'), 'utf8')) as { status: string };
  expect(manifest.status).toBe('interrupted');
  const committed = readJsonl<ResultRecord>(results).records;
  const calls = readJsonl<CallRecord>(join(runDir, 'calls.jsonl')).records;
  // Consistent: every committed result has its calls, and no call lacks its result.
  const resultKeys = new Set(committed.map((r) => `${r.case_id}|${r.arm}|${r.epoch}`));
  expect(new Set(calls.map((c) => `${c.case_id}|${c.arm}|${c.epoch}`))).toEqual(resultKeys);

  const resumed = await runCli(['run', '--resume', runDir, '--quiet', '--sim-latency-scale', '0']);
  expect(resumed.code, resumed.stderr).toBe(0);
  expect(readJsonl<ResultRecord>(results).records).toHaveLength(120);
});
