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
  // B given: with B unknown a gain is inconclusive (test/ledger-shapes.test.ts).
  const real = await runCli(['analyze', '--ledger', writeLedger(rows), '--budget', '4000', '--gate', '--json', '--rounds', '500']);
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

test('--budget B is checked: units billed 5,000 tokens against --budget 1000 are invalid (exit 12)', async () => {
  const rows: string[] = [];
  for (let i = 0; i < 60; i += 1) rows.push(seedRow(`c${i}`, 'baseline_single', i % 10 < 6, { total_tokens: 5000 }), seedRow(`c${i}`, 'candidate_single', i % 10 < 8, { total_tokens: 5000 }));
  const file = writeLedger(rows);
  const checked = await runCli(['analyze', '--ledger', file, '--budget', '1000', '--gate', '--json', '--rounds', '500']);
  expect(checked.code, checked.stderr).toBe(12);
  const record = JSON.parse(checked.stdout) as { verdict: string; invariants: { over_budget_units: number }; checks: Array<{ name: string; passed: boolean }>; same_budget: { budget: number; budget_source: string } };
  expect(record.verdict).toBe('invalid');
  expect(record.invariants.over_budget_units).toBe(120);
  expect(record.checks.find((c) => c.name === 'budget_respected')?.passed).toBe(false);
  expect(record.same_budget).toMatchObject({ budget: 1000, budget_source: 'flag' });
  // Within B: the same ledger passes the check.
  const roomy = await runCli(['analyze', '--ledger', file, '--budget', '5000', '--gate', '--json', '--rounds', '500']);
  expect(roomy.code, roomy.stderr).toBe(0);
});

test('without --budget: B from the rows\' `budget`, else reported unknown — never B=200000', async () => {
  const rows: string[] = [];
  for (let i = 0; i < 60; i += 1) rows.push(seedRow(`c${i}`, 'baseline_single', i % 10 < 6, { total_tokens: 5000 }), seedRow(`c${i}`, 'candidate_single', i % 10 < 8, { total_tokens: 5000 }));
  const unknown = await runCli(['analyze', '--ledger', writeLedger(rows), '--rounds', '500']);
  expect(unknown.code, unknown.stderr).toBe(0);
  expect(unknown.stdout).not.toContain('B=200000');
  expect(unknown.stdout).toContain('B unknown (the ledger states no budget; pass --budget B) — not a same-budget comparison');
  expect(unknown.stdout).not.toMatch(/same-budget pass@1|same budget, n=1/);
  expect(unknown.stdout).toContain('pass@1 (B unknown)');

  const stated = rows.map((row) => JSON.stringify({ ...(JSON.parse(row) as object), budget: 1000 }));
  const fromLedger = await runCli(['analyze', '--ledger', writeLedger(stated), '--gate', '--rounds', '500']);
  expect(fromLedger.code, fromLedger.stderr).toBe(12);
  expect(fromLedger.stdout).toContain('B=1000 tokens per case (from the ledger)');
  expect(fromLedger.stdout).toContain('budget_respected: 120 (case, arm) units billed more than B=1000');
});

test('a candidate that collapses (100% → 0% on 40 cases) is a regression: --gate exit 11', async () => {
  const rows: string[] = [];
  for (let i = 0; i < 40; i += 1) rows.push(seedRow(`c${i}`, 'baseline_single', true), seedRow(`c${i}`, 'candidate_single', false));
  const result = await runCli(['analyze', '--ledger', writeLedger(rows), '--gate', '--rounds', '500']);
  expect(result.code, result.stdout).toBe(11);
  expect(result.stdout).toContain('verdict: REGRESSION');
  expect(result.stdout).toContain('McNemar p=1.82e-12');
});

test('a 1-case ledger: inconclusive with the cases needed, a wide score interval and no NaN (terminal, Markdown, JSON)', async () => {
  const file = writeLedger([seedRow('c1', 'baseline_single', true), seedRow('c1', 'candidate_single', false)]);
  const text = await runCli(['analyze', '--ledger', file, '--gate', '--budget', '2000']);
  expect(text.code, text.stderr).toBe(10);
  expect(text.stdout).not.toContain('NaN');
  expect(text.stdout).toContain('verdict: INCONCLUSIVE');
  expect(text.stdout).toContain('about 1227 cases would give 80% power');
  const markdown = await runCli(['analyze', '--ledger', file, '--markdown']);
  expect(markdown.stdout).not.toContain('NaN');
  const json = await runCli(['analyze', '--ledger', file, '--json']);
  expect(json.stdout).not.toContain('NaN');
  // Tango's score interval exists at one pair (issue 24: never a zero-width or missing one).
  const sameBudget = (JSON.parse(json.stdout) as { same_budget: { ci95: [number, number]; ci_method: string } }).same_budget;
  expect(sameBudget.ci_method).toBe('tango-score');
  expect(sameBudget.ci95[0]).toBe(-1);
  expect(sameBudget.ci95[1]).toBeGreaterThan(0.5);
});

test('negative or non-numeric token counts and a second B are errors at their line (exit 2), nothing analysed', async () => {
  const file = writeLedger([
    seedRow('c1', 'baseline_single', true, { budget: 2000 }),
    seedRow('c1', 'candidate_single', true, { total_tokens: -5000 }),
    seedRow('c2', 'baseline_single', true, { prompt_tokens: '812' }),
    seedRow('c2', 'candidate_single', true, { budget: 3000 }),
    seedRow('c3', 'candidate_single', true, { budget: -1 }),
  ]);
  const result = await runCli(['analyze', '--ledger', file]);
  expect(result.code).toBe(2);
  expect(result.stderr).toContain(`${file}:2: total_tokens: total_tokens must be a non-negative number of tokens, got -5000`);
  expect(result.stderr).toContain(`${file}:3: prompt_tokens: prompt_tokens must be a non-negative number of tokens, got "812"`);
  expect(result.stderr).toContain(`${file}:4: budget: budget 3000 differs from budget 2000 on line 1`);
  expect(result.stderr).toContain(`${file}:5: budget: budget must be a positive number of tokens per case, got -1`);
  expect(result.stderr).not.toMatch(/\n\s+at /);
  expect(result.stdout).toBe('');
});

test('a negative or non-numeric latency, and a `selected` that is not true/false, are errors at their line (exit 2)', async () => {
  const file = writeLedger([
    seedRow('c1', 'baseline_single', true, { latency_ms: -5 }),
    seedRow('c1', 'candidate_single', true, { latency_ms: 'fast' }),
    seedRow('c2', 'baseline_best_of_8', true, { selected: 'yes' }),
    seedRow('c2', 'candidate_single', true, { latency_ms: null }),
  ]);
  const result = await runCli(['analyze', '--ledger', file]);
  expect(result.code).toBe(2);
  expect(result.stderr).toContain(`${file}:1: latency_ms: latency_ms must be a non-negative number of milliseconds, got -5`);
  expect(result.stderr).toContain(`${file}:2: latency_ms: latency_ms must be a non-negative number of milliseconds, got "fast"`);
  expect(result.stderr).toContain(`${file}:3: selected: selected must be true or false, got "yes"`);
  expect(result.stderr).not.toContain(`${file}:4:`);
  expect(result.stdout).toBe('');
});
