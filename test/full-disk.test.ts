/**
 * A run on a disk that fills: a 128 KiB tmpfs (the run's ledger needs ~210 KB) mounted by
 * the test (root only; skipped with a message where mounting is refused). The run stops
 * with exit 3 and one line naming the file, the manifest says `interrupted`, no ledger file
 * has a torn or damaged line; space comes back (remount, bigger), `--resume` completes, and
 * the results equal those of an uninterrupted run with the same seed.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { readJsonl } from '../src/ledger/jsonl-reader.js';
import type { Manifest } from '../src/ledger/manifest.js';
import type { CallRecord, ResultRecord } from '../src/ledger/records.js';
import { runCli } from './support/cli.js';
import { writeExperiment } from './support/experiment.js';

const mountPoint = mkdtempSync(join(tmpdir(), 'isobudget-full-disk-'));
let mounted = false;
let refused = '';

beforeAll(() => {
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=128k', 'tmpfs', mountPoint], { stdio: 'pipe' });
    mounted = true;
  } catch (error) {
    refused = (error as { stderr?: Buffer }).stderr?.toString().trim() || (error as Error).message;
  }
});

afterAll(() => {
  if (mounted) execFileSync('umount', [mountPoint]);
  rmSync(mountPoint, { recursive: true, force: true });
});

function comparable(results: ResultRecord[]): string[] {
  return results
    .map((r) => JSON.stringify([r.split, r.case_id, r.arm, r.epoch, r.passed, r.passes, r.total_tokens, r.prompt_tokens, r.completion_tokens, r.paths.map((p) => [p.output, p.passed, p.finish_reason, p.tokens])]))
    .sort();
}

const callKey = (c: CallRecord): string => `${c.case_id}|${c.arm}|${c.epoch}|${c.path}|${c.attempt}|${c.total_tokens}`;

test('a run fills the disk, stops cleanly, gets space back, resumes, and equals an uninterrupted run', async (context) => {
  if (!mounted) {
    process.stderr.write(`full-disk test skipped: cannot mount a tmpfs (${refused}); it needs root\n`);
    context.skip();
  }
  const experiment = writeExperiment({ provider: '{ preset: sim }', cases: 40 });
  const common = ['--quiet', '--no-report', '--sim-latency-scale', '0', '--concurrency', '4'];
  const reference = await runCli(['run', experiment.configPath, '--out', experiment.runsDir, '--run-id', 'reference', ...common]);
  expect(reference.code, reference.stderr).toBe(0);

  const runs = join(mountPoint, 'runs');
  mkdirSync(runs);
  const runDir = join(runs, 'full');
  const full = await runCli(['run', experiment.configPath, '--out', runs, '--run-id', 'full', ...common]);
  expect(full.code, full.stderr).toBe(3);
  const lines = full.stderr.trim().split('\n');
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(new RegExp(`^isobudget run: ${runDir}/[a-z-]+\\.jsonl: write failed \\(ENOSPC: no space left on device\\); the run stopped`));
  expect(full.stderr).toContain(`isobudget run --resume ${runDir}`);
  expect(full.stderr).not.toMatch(/\n\s+at /);
  const manifest = JSON.parse(readFileSync(join(runDir, 'manifest.json'), 'utf8')) as Manifest;
  expect(manifest.status).toBe('interrupted');
  // Every ledger file ends in whole lines and parses through (no torn line, none damaged).
  for (const name of readdirSync(runDir).filter((f) => f.endsWith('.jsonl'))) {
    const text = readFileSync(join(runDir, name), 'utf8');
    if (text !== '') expect(text.endsWith('\n'), name).toBe(true);
    for (const line of text.split('\n').filter(Boolean)) expect(() => JSON.parse(line), `${name}: ${line.slice(0, 80)}`).not.toThrow();
  }
  const partial = readJsonl<ResultRecord>(join(runDir, 'results.jsonl')).records.length;
  expect(partial).toBeLessThan(160);

  // Space comes back.
  execFileSync('mount', ['-o', 'remount,size=8m', mountPoint]);
  const resumed = await runCli(['run', '--resume', runDir, ...common]);
  expect(resumed.code, resumed.stderr).toBe(0);
  const results = readJsonl<ResultRecord>(join(runDir, 'results.jsonl')).records;
  const referenceResults = readJsonl<ResultRecord>(join(experiment.runsDir, 'reference', 'results.jsonl')).records;
  expect(results).toHaveLength(160);
  expect(comparable(results)).toEqual(comparable(referenceResults));
  const calls = readJsonl<CallRecord>(join(runDir, 'calls.jsonl')).records;
  const referenceCalls = readJsonl<CallRecord>(join(experiment.runsDir, 'reference', 'calls.jsonl')).records;
  expect(calls.map(callKey).sort()).toEqual(referenceCalls.map(callKey).sort());
  const final = JSON.parse(readFileSync(join(runDir, 'manifest.json'), 'utf8')) as Manifest;
  expect(final).toMatchObject({ status: 'complete', resumed: 1 });
  expect(final.calls?.committed).toBe(calls.length);
});
