/**
 * `run --resume` (issue 15, item 7): says what it recovered (units committed, calls moved
 * aside), keeps the options the run started with (`--sim-latency-scale`, `--concurrency`,
 * recorded in the manifest), and on a finished run is a no-op that says so — no byte of the
 * run directory changes.
 */
import { existsSync, mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import type { Manifest } from '../src/ledger/manifest.js';
import type { CallRecord, ResultRecord } from '../src/ledger/records.js';
import { runCli } from './support/cli.js';

const lines = (file: string): string[] => (existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter((line) => line !== '') : []);
const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;

async function initExperiment(): Promise<string> {
  const cwd = mkdtempSync(join(tmpdir(), 'isobudget-resume-'));
  const init = await runCli(['init', 'exp'], { cwd });
  expect(init.code, init.stderr).toBe(0);
  return cwd;
}

test('a killed run resumes with its recorded options and says what it recovered', async () => {
  const cwd = await initExperiment();
  const runDir = join(cwd, 'runs', 'killed');
  const results = join(runDir, 'results.jsonl');
  const killed = await runCli(['run', 'exp/experiment.yaml', '--run-id', 'killed', '--sim-latency-scale', '0.3', '--concurrency', '2', '--quiet'], {
    cwd,
    onSpawn: (child) => {
      const timer = setInterval(() => {
        if (lines(results).length >= 20) {
          clearInterval(timer);
          child.kill('SIGKILL');
        }
      }, 5);
    },
  });
  expect(killed.signal).toBe('SIGKILL');
  const manifest = JSON.parse(readFileSync(join(runDir, 'manifest.json'), 'utf8')) as Manifest;
  expect(manifest.run_options).toEqual({ sim_latency_scale: 0.3, concurrency: 2 });
  const committedBefore = new Set(lines(results).map((line) => { const r = JSON.parse(line) as ResultRecord; return `${r.case_id}|${r.arm}|${r.epoch}`; }));
  // A unit's calls reach calls.jsonl only when it commits; the rest of what was written is moved aside on resume.
  const committed = committedBefore.size;

  const resumed = await runCli(['run', '--resume', 'killed'], { cwd });
  expect(resumed.code, resumed.stderr).toBe(0);
  const aside = lines(join(runDir, 'interrupted-calls.jsonl')).length;
  expect(resumed.stderr).toContain(`resumed run killed: ${committed} of ${manifest.units_planned} units committed, ${manifest.units_planned - committed} to go; `);
  expect(resumed.stderr).toContain(aside === 0 ? 'no call moved aside' : `${aside} call(s) moved aside to interrupted-calls.jsonl`);
  expect(resumed.stderr).toContain("kept the run's options: --sim-latency-scale 0.3, --concurrency 2\n");

  // The resumed calls ran at the recorded latency scale (0.3 × the sim's ~100–900 ms), not at full speed or none.
  const after = lines(join(runDir, 'calls.jsonl')).map((line) => JSON.parse(line) as CallRecord).filter((c) => !committedBefore.has(`${c.case_id}|${c.arm}|${c.epoch}`));
  expect(after.length).toBeGreaterThan(10);
  expect(median(after.map((c) => c.latency_ms ?? 0))).toBeGreaterThan(40);
  const final = JSON.parse(readFileSync(join(runDir, 'manifest.json'), 'utf8')) as Manifest;
  expect(final).toMatchObject({ status: 'complete', resumed: 1, run_options: { sim_latency_scale: 0.3, concurrency: 2 } });
  expect(lines(results)).toHaveLength(manifest.units_planned);
}, 30_000);

test('resuming a finished run is a no-op that says so: exit 0, not one byte of the run directory changes', async () => {
  const cwd = await initExperiment();
  const run = await runCli(['run', 'exp/experiment.yaml', '--run-id', 'done', '--sim-latency-scale', '0'], { cwd });
  expect(run.code, run.stderr).toBe(0);
  const dir = join(cwd, 'runs', 'done');
  const snapshot = (): Record<string, string> => Object.fromEntries(readdirSync(dir).map((file) => [file, readFileSync(join(dir, file), 'base64')]));
  const before = snapshot();
  expect(Object.keys(before)).toContain('report.html');

  const again = await runCli(['run', '--resume', 'latest'], { cwd });
  expect(again.code, again.stderr).toBe(0);
  expect(again.stdout).toMatch(/^run done is already complete \(96 units planned, finished [^)]+\): nothing to resume; its ledger and report are unchanged/);
  expect(again.stderr).toBe('');
  expect(snapshot()).toEqual(before);
}, 30_000);
