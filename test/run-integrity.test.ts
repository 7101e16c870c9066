/**
 * Resume, gate and integrity (issue 24 items 6–7): `run --resume` of a finished run prints and
 * exits with its verdict; the manifest says `complete` only once verdict.json is written; the
 * manifest records the ledgers' sha256 and every reader cross-checks calls against results.
 */
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, expect, test } from 'vitest';
import type { Manifest } from '../src/ledger/manifest.js';
import type { CallRecord, ResultRecord } from '../src/ledger/records.js';
import { runExperiment } from '../src/runner/run-experiment.js';
import { runCli } from './support/cli.js';

const lines = (file: string): string[] => readFileSync(file, 'utf8').split('\n').filter((line) => line !== '');
const manifestOf = (dir: string): Manifest => JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as Manifest;

let cwd = '';

/** `init exp` run once on the simulator (its verdict: inconclusive — 24 cases cannot rule out the minimum gain — exit 10 under --gate); each test works on a copy. */
beforeAll(async () => {
  cwd = mkdtempSync(join(tmpdir(), 'isobudget-integrity-'));
  expect((await runCli(['init', 'exp'], { cwd })).code).toBe(0);
  const run = await runCli(['run', 'exp/experiment.yaml', '--run-id', 'finished', '--sim-latency-scale', '0', '--no-report'], { cwd });
  expect(run.code, run.stderr).toBe(0);
}, 60_000);

function finishedRun(id: string): { cwd: string; dir: string } {
  const dir = join(cwd, 'runs', id);
  cpSync(join(cwd, 'runs', 'finished'), dir, { recursive: true });
  return { cwd, dir };
}

test('run --resume of a finished run exits with its verdict (--gate) and prints it (--json); a missing verdict.json is decided', async () => {
  const { dir } = finishedRun('done');
  const decided = JSON.parse(readFileSync(join(dir, 'verdict.json'), 'utf8')) as { verdict: string };
  expect(decided.verdict).toBe('inconclusive');
  const gated = await runCli(['run', '--resume', 'done', '--gate'], { cwd });
  expect(gated.code).toBe(10);
  expect(gated.stdout).toContain('verdict: INCONCLUSIVE');

  rmSync(join(dir, 'verdict.json'));
  const missing = await runCli(['run', '--resume', 'done', '--gate', '--json'], { cwd });
  expect(missing.code, missing.stderr).toBe(10);
  expect(JSON.parse(missing.stdout)).toMatchObject({ verdict: 'inconclusive' });
  expect(missing.stderr).toContain('already complete');
  expect(missing.stderr).toContain('its verdict was missing and is decided now');
  expect(existsSync(join(dir, 'verdict.json'))).toBe(true);
}, 60_000);

test('the manifest is `complete` only after verdict.json: a stop between the last unit and the verdict resumes to a verdict', async () => {
  const seen: Manifest[] = [];
  // The process dies where the CLI writes the verdict: the hook throws before verdict.json exists.
  await expect(runExperiment({
    configPath: join(cwd, 'exp', 'experiment.yaml'), outDir: join(cwd, 'runs'), runId: 'cut', simLatencyScale: 0,
    beforeComplete: (dir) => {
      seen.push(manifestOf(dir));
      throw new Error('killed before the verdict');
    },
  })).rejects.toThrow('killed before the verdict');
  expect(seen).toHaveLength(1);
  const dir = join(cwd, 'runs', 'cut');
  expect(seen[0]).toMatchObject({ status: 'running', ledger_sha256: { 'calls.jsonl': expect.stringMatching(/^[0-9a-f]{64}$/) } });
  expect(manifestOf(dir).status).toBe('running');
  expect(existsSync(join(dir, 'verdict.json'))).toBe(false);
  const resumed = await runCli(['run', '--resume', 'cut', '--gate', '--json'], { cwd });
  expect(resumed.code, resumed.stderr).toBe(10);
  expect(JSON.parse(resumed.stdout)).toMatchObject({ verdict: 'inconclusive' });
  expect(manifestOf(dir).status).toBe('complete');
  expect(existsSync(join(dir, 'verdict.json'))).toBe(true);
}, 60_000);

test('deleted calls or an edited results.jsonl make the run invalid for analyze, report, resume and memory ingest', async () => {
  const { dir } = finishedRun('edited');
  const manifest = manifestOf(dir);
  expect(manifest.ledger_sha256?.['results.jsonl']).toMatch(/^[0-9a-f]{64}$/);

  // Every candidate call deleted (the attack of the issue): the first unit whose calls are gone is named.
  const calls = join(dir, 'calls.jsonl');
  const original = readFileSync(calls, 'utf8');
  writeFileSync(calls, `${lines(calls).filter((line) => !(JSON.parse(line) as CallRecord).arm.startsWith('candidate')).join('\n')}\n`);
  const deleted = await runCli(['analyze', dir, '--gate', '--json'], { cwd });
  expect(deleted.code).toBe(12);
  const record = JSON.parse(deleted.stdout) as { verdict: string; checks: Array<{ name: string; passed: boolean; detail: string }> };
  expect(record.verdict).toBe('invalid');
  expect(record.checks[0]).toMatchObject({ name: 'ledger_integrity', passed: false });
  expect(record.checks[0]?.detail).toMatch(/^candidate_\w+ case "[^"]+": results\.jsonl says \d+ calls?, calls\.jsonl holds 0/);
  writeFileSync(calls, original);

  // Every candidate n=1 result flipped to passed, verdict.json removed: totals still agree, the hash does not.
  const results = join(dir, 'results.jsonl');
  writeFileSync(results, `${lines(results).map((line) => { const r = JSON.parse(line) as ResultRecord; return JSON.stringify(r.arm === 'candidate_single' ? { ...r, passed: true, passed_any: true, passes: 1 } : r); }).join('\n')}\n`);
  rmSync(join(dir, 'verdict.json'));
  const flipped = await runCli(['analyze', dir, '--gate'], { cwd });
  expect(flipped.code).toBe(12);
  expect(flipped.stdout).toContain('ledger_integrity: results.jsonl changed after the run finished');
  const resumed = await runCli(['run', '--resume', 'edited', '--gate'], { cwd });
  expect(resumed.code).toBe(12);
  const ingest = await runCli(['memory', 'ingest', dir, '--store', join(cwd, 'memory.sqlite')], { cwd });
  expect(ingest.code, ingest.stderr).toBe(0);
  expect(ingest.stdout).toContain('invalid');
  expect(ingest.stdout).not.toMatch(/skill_candidate|skill candidate/);
  const report = await runCli(['report', dir, '--markdown'], { cwd });
  expect(report.stdout).toContain('invalid');
}, 90_000);
