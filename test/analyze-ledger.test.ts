/** `isobudget analyze --ledger` on a ledger in the seed's record format, and `--gate` exit codes. */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { readSeedLedger } from '../src/analysis/seed-ledger.js';
import { runCli } from './support/cli.js';

function seedRow(caseId: string, arm: string, passed: boolean, extra: Record<string, unknown> = {}): string {
  const n = arm.endsWith('single') ? 1 : Number(arm.split('_').pop());
  return JSON.stringify({ run_id: 'bf-2026-06-01-001', case_id: caseId, arm, n, model: 'your-candidate-model', base_url: 'https://taotoken.net/api', prompt_tokens: 812, completion_tokens: 245, total_tokens: 1057, latency_ms: 1830, passed, judge_score: 0.86, ...extra });
}

function writeLedger(rows: string[]): string {
  const dir = mkdtempSync(join(tmpdir(), 'isobudget-ledger-'));
  const file = join(dir, 'ledger.jsonl');
  writeFileSync(file, `${rows.join('\n')}\n`);
  return file;
}

test('several rows per (case, arm) aggregate as documented', async () => {
  const file = writeLedger([
    seedRow('c1', 'baseline_single', false, { total_tokens: 100 }),
    seedRow('c1', 'baseline_single', true, { total_tokens: 50, latency_ms: 900 }), // a retry: the last row decides
    seedRow('c1', 'candidate_best_of_8', false, { total_tokens: 10 }),
    seedRow('c1', 'candidate_best_of_8', true, { total_tokens: 10, selected: false }),
    seedRow('c1', 'candidate_best_of_8', false, { total_tokens: 10, selected: true }),
    seedRow('c2', 'candidate_single', true, { total_tokens: null }),
  ]);
  const results = await readSeedLedger(file);
  const get = (caseId: string, arm: string) => results.find((r) => r.case_id === caseId && r.arm === arm);
  expect(get('c1', 'baseline_single')).toMatchObject({ passed: true, total_tokens: 150, latency_ms: 1830, calls: 2 });
  expect(get('c1', 'candidate_best_of_8')).toMatchObject({ passed: false, passed_any: true, passes: 1, total_tokens: 30, n: 8 });
  expect(get('c2', 'candidate_single')).toMatchObject({ total_tokens: undefined, calls_missing_usage: 1 });
});

test('a broken row is named by file, line and key', async () => {
  const file = writeLedger([seedRow('c1', 'baseline_single', true), '{"case_id": "c2", "arm": "baseline_double", "passed": true}', '{not json']);
  const result = await runCli(['analyze', '--ledger', file]);
  expect(result.code).toBe(2);
  expect(result.stderr).toContain(`${file}:2: arm: arm "baseline_double" is not baseline_single`);
  expect(result.stderr).toContain(`${file}:3: invalid JSON`);
});

test('analyze --ledger --gate: exit 0 for real_evolution, 10 for leakage; --json and --markdown', async () => {
  const rows: string[] = [];
  for (let i = 0; i < 200; i += 1) {
    const base = i % 10 < 6;
    rows.push(seedRow(`c${i}`, 'baseline_single', base), seedRow(`c${i}`, 'candidate_single', base || i % 10 === 6 || i % 10 === 7));
    rows.push(seedRow(`c${i}`, 'baseline_best_of_8', base, { total_tokens: 4000 }), seedRow(`c${i}`, 'candidate_best_of_8', base || i % 10 === 6, { total_tokens: 4000 }));
  }
  const real = await runCli(['analyze', '--ledger', writeLedger(rows), '--gate', '--json', '--rounds', '500']);
  expect(real.code, real.stderr).toBe(0);
  const record = JSON.parse(real.stdout) as { verdict: string; same_budget: { delta: number }; bestofn_on: { n: number } };
  expect(record.verdict).toBe('real_evolution');
  expect(record.same_budget.delta).toBeCloseTo(0.2, 12);
  expect(record.bestofn_on.n).toBe(8);

  const leakRows = rows.map((row) => {
    const parsed = JSON.parse(row) as { arm: string; case_id: string; passed: boolean };
    if (parsed.arm === 'candidate_single') parsed.passed = Number(parsed.case_id.slice(1)) % 10 < 6;
    if (parsed.arm === 'candidate_best_of_8') parsed.passed = Number(parsed.case_id.slice(1)) % 10 < 9;
    return JSON.stringify(parsed);
  });
  const leak = await runCli(['analyze', '--ledger', writeLedger(leakRows), '--gate', '--markdown', '--rounds', '500']);
  expect(leak.code).toBe(10);
  expect(leak.stdout).toContain('isobudget: `budget_leakage`');
  const stricter = await runCli(['analyze', '--ledger', writeLedger(rows), '--gate', '--min-gain', '0.3', '--rounds', '500']);
  expect(stricter.code).toBe(10);
  expect(stricter.stdout).toContain('verdict: NO_GAIN');
});
