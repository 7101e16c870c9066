/**
 * Sequential screening end to end (issue 14): the shipped examples stop where they should,
 * with fewer tokens, and a run killed mid-way resumes to the same stop.
 */
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { readJsonl } from '../src/ledger/jsonl-reader.js';
import type { Manifest } from '../src/ledger/manifest.js';
import type { CallRecord, ResultRecord } from '../src/ledger/records.js';
import { runExperiment } from '../src/runner/run-experiment.js';
import type { VerdictRecord } from '../src/verdict/record.js';
import { runCli } from './support/cli.js';
import { writeExperiment } from './support/experiment.js';

const examples = join(import.meta.dirname, '..', 'examples');
const spent = (results: readonly ResultRecord[]): number => results.reduce((sum, r) => sum + (r.total_tokens ?? 0), 0);
const readJson = <T>(file: string): T => JSON.parse(readFileSync(file, 'utf8')) as T;

describe.concurrent('the examples with --sequential', () => {
  test('date-parser reaches real_evolution with fewer tokens than the full run, and prints both figures', async () => {
    const out = mkdtempSync(join(tmpdir(), 'isobudget-seq-date-'));
    const sequential = await runCli(['run', join(examples, 'date-parser', 'experiment.yaml'), '--sequential', '--out', out, '--run-id', 'sequential', '--no-report']);
    expect(sequential.code, sequential.stderr).toBe(0);
    const full = await runExperiment({ configPath: join(examples, 'date-parser', 'experiment.yaml'), outDir: out, runId: 'full', env: {} });
    const verdict = readJson<VerdictRecord>(join(out, 'sequential', 'verdict.json'));
    expect(verdict.verdict).toBe('real_evolution');
    const section = verdict.sequential!;
    expect(section.stop_reason).toBe('efficacy');
    expect(section.stopped_at).toBeLessThan(200);
    expect(section.n1.cs[0]).toBeGreaterThan(0);
    const sequentialTokens = spent(readJsonl<ResultRecord>(join(out, 'sequential', 'results.jsonl')).records);
    const fullTokens = spent(full.results);
    expect(section.tokens_spent).toBe(sequentialTokens);
    expect(sequentialTokens).toBeLessThan(0.75 * fullTokens);
    // The estimate of the whole split is the real full run's spend, give or take the order's luck.
    expect(Math.abs(section.tokens_full_split_estimate / fullTokens - 1)).toBeLessThan(0.15);
    expect(sequential.stdout).toContain(`tokens: ${sequentialTokens.toLocaleString('en-US')} spent; the whole split: ~${section.tokens_full_split_estimate.toLocaleString('en-US')}`);
    expect(sequential.stdout).toMatch(/sequential screening: stopped after \d+ of 200 cases \(efficacy\)/);
    expect(sequential.stdout).toContain('not valid under optional stopping');
    expect(sequential.stdout).toContain('verdict: REAL_EVOLUTION');
    console.log(`date-parser: sequential ${sequentialTokens} tokens (${section.stopped_at} cases) vs full run ${fullTokens} tokens (200 cases)`);
  });

  test('null stops for futility with no_gain', async () => {
    const out = mkdtempSync(join(tmpdir(), 'isobudget-seq-null-'));
    const run = await runExperiment({ configPath: join(examples, 'null', 'experiment.yaml'), outDir: out, env: {}, sequential: true });
    expect(run.sequential?.stop?.reason).toBe('futility');
    const result = await runCli(['analyze', run.runDir, '--json']);
    const verdict = JSON.parse(result.stdout) as VerdictRecord;
    expect(verdict.verdict).toBe('no_gain');
    expect(verdict.sequential).toMatchObject({ stop_reason: 'futility', n1: { futile: true, decided_worse: false } });
    expect(verdict.sequential!.stopped_at).toBeLessThan(200);
    expect(verdict.sequential!.tokens_fraction).toBeLessThan(0.6);
  });

  test('search-leak stops with budget_leakage', async () => {
    const out = mkdtempSync(join(tmpdir(), 'isobudget-seq-leak-'));
    const run = await runExperiment({ configPath: join(examples, 'search-leak', 'experiment.yaml'), outDir: out, env: {}, sequential: { lookEvery: 20, minCases: 40 } });
    expect(run.sequential?.stop?.reason).toBe('leakage');
    const result = await runCli(['analyze', run.runDir, '--json']);
    const verdict = JSON.parse(result.stdout) as VerdictRecord;
    expect(verdict.verdict).toBe('budget_leakage');
    expect(verdict.sequential!.bestofn).toMatchObject({ n: 8, decided_gain: true });
    expect(verdict.sequential!.n1.futile).toBe(true);
    expect(verdict.sequential!.stopped_at).toBeLessThan(200);
  });
});

test('SIGKILL mid-sequential-run, then --resume: the same stop and verdict as an uninterrupted run', async () => {
  const out = mkdtempSync(join(tmpdir(), 'isobudget-seq-resume-'));
  const config = join(examples, 'date-parser', 'experiment.yaml');
  const reference = await runCli(['run', config, '--sequential', '--out', out, '--run-id', 'reference', '--quiet', '--no-report', '--sim-latency-scale', '0.2']);
  expect(reference.code, reference.stderr).toBe(0);
  const referenceManifest = readJson<Manifest>(join(out, 'reference', 'manifest.json'));
  const stoppedAt = referenceManifest.sequential?.stopped_at ?? 0;
  expect(stoppedAt).toBeGreaterThan(40);

  const runDir = join(out, 'killed');
  const results = join(runDir, 'results.jsonl');
  // 80 regression results come first; kill between the first look and the stop.
  const killAt = 80 + 4 * 50;
  expect(killAt).toBeLessThan(80 + 4 * stoppedAt);
  const killed = await runCli(['run', config, '--sequential', '--out', out, '--run-id', 'killed', '--quiet', '--no-report', '--sim-latency-scale', '0.5'], {
    onSpawn: (child) => {
      const timer = setInterval(() => {
        const lines = existsSync(results) ? readFileSync(results, 'utf8').split('\n').length - 1 : 0;
        if (lines >= killAt) {
          clearInterval(timer);
          child.kill('SIGKILL');
        }
      }, 5);
    },
  });
  expect(killed.signal).toBe('SIGKILL');
  expect(readJson<Manifest>(join(runDir, 'manifest.json')).sequential?.stopped_at).toBeNull();

  const resumed = await runCli(['run', '--resume', runDir, '--quiet', '--no-report', '--sim-latency-scale', '0']);
  expect(resumed.code, resumed.stderr).toBe(0);
  const manifest = readJson<Manifest>(join(runDir, 'manifest.json'));
  expect(manifest.sequential).toMatchObject({ stopped_at: stoppedAt, stop_reason: referenceManifest.sequential?.stop_reason });
  expect(manifest.resumed).toBe(1);
  const verdict = readJson<VerdictRecord>(join(runDir, 'verdict.json'));
  const referenceVerdict = readJson<VerdictRecord>(join(out, 'reference', 'verdict.json'));
  expect(verdict.verdict).toBe(referenceVerdict.verdict);
  expect(verdict.sequential?.n1).toEqual(referenceVerdict.sequential?.n1);
  expect(verdict.sequential?.looks).toEqual(referenceVerdict.sequential?.looks);
  expect(verdict.same_budget?.delta).toBe(referenceVerdict.same_budget?.delta);
  // No call was made twice.
  const calls = readJsonl<CallRecord>(join(runDir, 'calls.jsonl')).records;
  const keys = calls.map((c) => `${c.case_id}|${c.arm}|${c.epoch}|${c.path}|${c.attempt}`);
  expect(new Set(keys).size).toBe(keys.length);
});

test('a `sequential:` block in the config turns it on; a bad value is a one-line error naming the key', async () => {
  const experiment = writeExperiment({ provider: '{ preset: sim }', cases: 30, extra: 'sequential: { look_every: 10, min_cases: 10 }' });
  const ok = await runCli(['run', experiment.configPath, '--out', experiment.runsDir, '--run-id', 'block', '--json', '--no-report', '--sim-latency-scale', '0']);
  expect(ok.code, ok.stderr).toBe(0);
  const verdict = JSON.parse(ok.stdout) as VerdictRecord;
  expect(verdict.sequential).toMatchObject({ look_every: 10, min_cases: 10, planned_cases: 30 });
  expect(verdict.sequential!.looks.every((look) => look.cases % 10 === 0 || look.cases === 30)).toBe(true);

  writeFileSync(experiment.configPath, readFileSync(experiment.configPath, 'utf8').replace('look_every: 10', 'look_every: 0'));
  const bad = await runCli(['run', experiment.configPath, '--out', experiment.runsDir, '--no-report']);
  expect(bad.code).toBe(2);
  expect(bad.stderr).toContain('sequential.look_every');
  expect(bad.stderr).not.toMatch(/\n\s+at /);
});

test('--sequential cannot turn a fixed-size run sequential on --resume', async () => {
  const experiment = writeExperiment({ provider: '{ preset: sim }', cases: 6 });
  const fixed = await runCli(['run', experiment.configPath, '--out', experiment.runsDir, '--run-id', 'fixed', '--quiet', '--no-report', '--sim-latency-scale', '0']);
  expect(fixed.code, fixed.stderr).toBe(0);
  const resumed = await runCli(['run', '--resume', join(experiment.runsDir, 'fixed'), '--sequential']);
  expect(resumed.code).toBe(2);
  expect(resumed.stderr).toContain('--sequential cannot switch a fixed-size run');
  expect(resumed.stderr.trim().split('\n').length).toBeLessThanOrEqual(3);
});
