/** `isobudget analyze RUN --csv` (and `--ledger FILE --csv`) on real run directories, through the built CLI. */
import { existsSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import type { ResultRecord } from '../src/ledger/records.js';
import { runCli } from './support/cli.js';
import { writeExperiment } from './support/experiment.js';

test('analyze RUN --csv prints one row per case × arm × epoch, matching results.jsonl, and writes nothing', async () => {
  const { configPath, runsDir } = writeExperiment({ provider: '{ preset: sim }', cases: 6, extra: 'epochs: 2' });
  const run = await runCli(['run', configPath, '--out', runsDir, '--no-report', '--quiet']);
  expect(run.code).toBe(0);
  const id = (/ledger: (\S+)/.exec(run.stdout)?.[1] ?? '').trim();
  expect(existsSync(id)).toBe(true);
  const verdictTime = statSync(join(id, 'verdict.json')).mtimeMs;
  const csv = await runCli(['analyze', id, '--csv']);
  expect(csv.code).toBe(0);
  const results = readFileSync(join(id, 'results.jsonl'), 'utf8').trim().split('\n').map((line) => JSON.parse(line) as ResultRecord);
  const lines = csv.stdout.trimEnd().split('\n');
  expect(lines[0]).toMatch(/^run_id,case_id,arm,variant,n,epoch,/);
  expect(lines).toHaveLength(1 + results.length);
  // Both epochs of the n=1 arms are there.
  expect(new Set(results.filter((r) => r.n === 1).map((r) => r.epoch))).toEqual(new Set([0, 1]));
  const header = (lines[0] as string).split(',');
  for (const [i, result] of results.entries()) {
    const cells = (lines[i + 1] as string).split(',');
    const cell = (name: string) => cells[header.indexOf(name)];
    expect([cell('case_id'), cell('arm'), cell('epoch'), cell('passed'), cell('total_tokens')]).toEqual([result.case_id, result.arm, String(result.epoch), String(result.passed), String(result.total_tokens)]);
  }
  expect(statSync(join(id, 'verdict.json')).mtimeMs).toBe(verdictTime);
});

test('analyze --ledger FILE --csv: a seed-format ledger as CSV, a hostile case id defused', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'isobudget-csv-'));
  const file = join(dir, 'ledger.jsonl');
  const rows = [
    { case_id: '=1+1', arm: 'baseline_single', passed: true, total_tokens: 10 },
    { case_id: 'c2\u001b[2J', arm: 'candidate_single', passed: false },
  ];
  writeFileSync(file, `${rows.map((r) => JSON.stringify(r)).join('\n')}\n`);
  const csv = await runCli(['analyze', '--ledger', file, '--csv']);
  expect(csv.code).toBe(0);
  const lines = csv.stdout.trimEnd().split('\n');
  expect(lines[1]).toMatch(/^external,'=1\+1,baseline_single,/);
  expect(lines[2]).toMatch(/^external,c2,candidate_single,/);
  expect(csv.stdout).not.toContain('\u001b');
  expect(csv.stdout).not.toContain('\\u001b');
});
