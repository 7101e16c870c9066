/**
 * Ledgers as written by others (issue 24 item 4): the seed's one-row-per-(case, arm) shape,
 * an unknown B, and a unit whose known rows already overspend B beside a usage-less row.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { readSeedLedger } from '../src/analysis/seed-ledger.js';
import { runCli } from './support/cli.js';

function row(caseId: string, arm: string, passed: boolean, extra: Record<string, unknown> = {}): string {
  const n = arm.endsWith('single') ? 1 : Number(arm.split('_').pop());
  return JSON.stringify({ run_id: 'bf-2026-06-01-001', case_id: caseId, arm, n, model: 'm', prompt_tokens: 800, completion_tokens: 200, total_tokens: 1000, latency_ms: 1000, passed, ...extra });
}

function ledger(rows: string[]): string {
  const file = join(mkdtempSync(join(tmpdir(), 'isobudget-shapes-')), 'ledger.jsonl');
  writeFileSync(file, `${rows.join('\n')}\n`);
  return file;
}

/** 200 cases: baseline 60%, candidate 80% at n=1; at n=8 one row per (case, arm), as the seed's Python writes it. */
function articleRows(extra: Record<string, unknown> = {}): string[] {
  const rows: string[] = [];
  for (let i = 0; i < 200; i += 1) {
    const base = i % 10 < 6;
    const cand = i % 10 < 8;
    rows.push(row(`c${i}`, 'baseline_single', base, extra), row(`c${i}`, 'candidate_single', cand, extra));
    rows.push(row(`c${i}`, 'baseline_best_of_8', base || i % 10 === 6, { ...extra, total_tokens: 1000 }), row(`c${i}`, 'candidate_best_of_8', cand || i % 10 === 8, { ...extra, total_tokens: 1000 }));
  }
  return rows;
}

interface Arm { arm: string; passAt1: number | null; passAtN: number | null; selectedAtN: number }

test('one row for n=8 paths is one selected@8 outcome: pass@1 and pass@N n/a, never passed/8', async () => {
  const file = ledger(articleRows({ budget: 2000 }));
  const results = await readSeedLedger(file);
  expect(results.find((r) => r.arm === 'candidate_best_of_8')).toMatchObject({ passes_unknown: true, passed: true });
  const json = await runCli(['analyze', '--ledger', file, '--json', '--rounds', '500']);
  expect(json.code, json.stderr).toBe(0);
  const record = JSON.parse(json.stdout) as { verdict: string; arms: Arm[]; bestofn_on: { baseline_selected: number; candidate_selected: number; baseline_pass_at_n: number | null } };
  const arm = (name: string): Arm | undefined => record.arms.find((a) => a.arm === name);
  expect(arm('baseline_best_of_8')).toMatchObject({ passAt1: null, passAtN: null, selectedAtN: 0.7 });
  expect(arm('candidate_best_of_8')).toMatchObject({ passAt1: null, passAtN: null, selectedAtN: 0.9 });
  // n=1 arms keep their pass@1 (their one row is their one path).
  expect(arm('candidate_single')?.passAt1).toBeCloseTo(0.8, 12);
  expect(record.bestofn_on).toMatchObject({ baseline_selected: 0.7, candidate_selected: 0.9, baseline_pass_at_n: null });
  expect(record.verdict).toBe('real_evolution');
  const text = await runCli(['analyze', '--ledger', file, '--rounds', '500']);
  expect(text.stdout).not.toMatch(/8\.8%|11\.3%|NaN/);
  expect(text.stdout).toMatch(/candidate_best_of_8\s+8\s+200\s+n\/a\s+n\/a\s+90\.0%/);
});

test('per-path rows (8 a case) keep pass@1 and pass@N', async () => {
  const rows: string[] = [];
  for (let i = 0; i < 20; i += 1) {
    rows.push(row(`c${i}`, 'baseline_single', true), row(`c${i}`, 'candidate_single', true));
    for (let path = 0; path < 8; path += 1) rows.push(row(`c${i}`, 'baseline_best_of_8', path < 2, { total_tokens: 100, selected: path === 0 }), row(`c${i}`, 'candidate_best_of_8', path < 4, { total_tokens: 100, selected: path === 0 }));
  }
  const results = await readSeedLedger(ledger(rows));
  expect(results.find((r) => r.arm === 'baseline_best_of_8')).toMatchObject({ passes: 2, passed: true });
  expect(results.some((r) => r.passes_unknown)).toBe(false);
});

test('B unknown never yields real_evolution: inconclusive with "give --budget B"; with --budget the same ledger is real', async () => {
  const file = ledger(articleRows());
  const unknown = await runCli(['analyze', '--ledger', file, '--gate', '--rounds', '500']);
  expect(unknown.code, unknown.stdout).toBe(10);
  expect(unknown.stdout).toContain('verdict: INCONCLUSIVE');
  expect(unknown.stdout).toContain('give --budget B');
  expect(unknown.stdout).not.toContain('REAL_EVOLUTION');
  const json = JSON.parse((await runCli(['analyze', '--ledger', file, '--json', '--rounds', '500'])).stdout) as { verdict: string; checks: Array<{ name: string; passed: boolean }> };
  expect(json.verdict).toBe('inconclusive');
  expect(json.checks.find((c) => c.name === 'budget_known')?.passed).toBe(false);
  const given = await runCli(['analyze', '--ledger', file, '--budget', '2000', '--gate', '--rounds', '500']);
  expect(given.code, given.stdout).toBe(0);
  expect(given.stdout).toContain('verdict: REAL_EVOLUTION');
});

test('a unit whose known rows exceed B is over B whatever usage-less rows it also has (invalid, exit 12)', async () => {
  const rows: string[] = [];
  for (let i = 0; i < 60; i += 1) rows.push(row(`c${i}`, 'baseline_single', i % 10 < 6), row(`c${i}`, 'candidate_single', i % 10 < 8));
  // c0's candidate: a 5,000-token retry and a row with no usage, against B=1000.
  rows.push(row('c0', 'candidate_single', false, { total_tokens: 5000 }), row('c0', 'candidate_single', true, { total_tokens: null, prompt_tokens: null, completion_tokens: null }));
  const file = ledger(rows);
  for (const args of [['--budget', '1000'], []]) {
    const stated = args.length === 0 ? ledger(rows.map((r) => JSON.stringify({ ...(JSON.parse(r) as object), budget: 1000 }))) : file;
    const result = await runCli(['analyze', '--ledger', stated, ...args, '--gate', '--json', '--rounds', '500']);
    expect(result.code, result.stdout).toBe(12);
    const record = JSON.parse(result.stdout) as { verdict: string; invariants: { over_budget_units: number } };
    expect(record).toMatchObject({ verdict: 'invalid', invariants: { over_budget_units: 1 } });
  }
});
