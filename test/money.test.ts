/**
 * Issue 15 item 3: money beside the tokens. With a price table of round numbers, an arm's
 * cost is its tokens × the price, to the cent, in the terminal table, `analyze --json` and
 * the report; every call record carries `cost_usd` (null, never 0, without a price).
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { readJsonl } from '../src/ledger/jsonl-reader.js';
import type { CallRecord, ResultRecord } from '../src/ledger/records.js';
import type { Manifest } from '../src/ledger/manifest.js';
import { runCli } from './support/cli.js';
import { writeExperiment } from './support/experiment.js';

interface ArmJson {
  arm: string;
  costUsd: number | null;
  costPerSuccessUsd: number | null;
  unitsMissingCost: number;
}

/** The terminal arm table as { arm → { column → cell } }. */
function terminalTable(stdout: string): Map<string, Record<string, string>> {
  const lines = stdout.split('\n');
  const headerAt = lines.findIndex((l) => l.startsWith('arm '));
  const header = (lines[headerAt] ?? '').trim().split(/\s{2,}/);
  const rows = new Map<string, Record<string, string>>();
  for (const line of lines.slice(headerAt + 2)) {
    if (!/^(baseline|candidate)_/.test(line)) break;
    const cells = line.trim().split(/\s{2,}/);
    rows.set(cells[0] ?? '', Object.fromEntries(header.map((title, i) => [title, cells[i] ?? ''])));
  }
  return rows;
}

const dollars = (text: string): number => Number(text.replace(/[≥$,]/g, ''));

/** Per arm, from calls.jsonl alone: Σ over the calls the arm's tokens count, priced by hand. */
function expectedCosts(runDir: string, price: { input: number; output: number }): Map<string, { cost: number; tokens: number; successes: number }> {
  const calls = readJsonl<CallRecord>(join(runDir, 'calls.jsonl')).records.filter((c) => c.role === 'generate' && c.error === undefined && c.split !== 'regression');
  const results = readJsonl<ResultRecord>(join(runDir, 'results.jsonl')).records.filter((r) => r.split !== 'regression');
  const out = new Map<string, { cost: number; tokens: number; successes: number }>();
  for (const c of calls) {
    const arm = out.get(c.arm) ?? { cost: 0, tokens: 0, successes: 0 };
    arm.cost += ((c.prompt_tokens ?? 0) * price.input + (c.completion_tokens ?? 0) * price.output) / 1e6;
    arm.tokens += c.total_tokens ?? 0;
    out.set(c.arm, arm);
  }
  for (const r of results) if (r.passed) (out.get(r.arm) as { successes: number }).successes += 1;
  return out;
}

test('round prices: cost per arm = tokens × price to the cent in the terminal table, analyze --json and the report', async () => {
  // One price for every token: an arm's cost is exactly its tokens × $2,000 per million.
  const experiment = writeExperiment({ provider: '{ preset: sim }', cases: 16, extra: 'pricing: { sim-small: { input: 2000, cached_input: 2000, output: 2000 } }' });
  const run = await runCli(['run', experiment.configPath, '--out', experiment.runsDir, '--run-id', 'priced', '--quiet', '--sim-latency-scale', '0'], { cwd: experiment.dir });
  expect(run.code, run.stderr).toBe(0);
  const runDir = join(experiment.runsDir, 'priced');
  const expected = expectedCosts(runDir, { input: 2000, output: 2000 });
  expect(expected.size).toBe(4);

  // Every call record is costed on its own.
  for (const call of readJsonl<CallRecord>(join(runDir, 'calls.jsonl')).records) {
    expect(call.cost_usd).toBeCloseTo(((call.total_tokens ?? 0) * 2000) / 1e6, 12);
  }

  const table = terminalTable(run.stdout);
  const json = await runCli(['analyze', 'latest', '--json', '--no-report'], { cwd: experiment.dir });
  expect(json.code, json.stderr).toBe(0);
  const arms = (JSON.parse(json.stdout) as { arms: ArmJson[] }).arms;
  const report = readFileSync(join(runDir, 'report.html'), 'utf8');
  for (const [arm, want] of expected) {
    const tokensTimesPrice = (want.tokens * 2000) / 1e6;
    expect(want.cost).toBeCloseTo(tokensTimesPrice, 9);
    expect(tokensTimesPrice).toBeGreaterThan(1);
    // Terminal: cost and cost/success, to the cent.
    const row = table.get(arm);
    expect(row, `terminal row for ${arm}`).toBeDefined();
    expect(Math.abs(dollars(row?.['cost'] ?? '') - tokensTimesPrice)).toBeLessThanOrEqual(0.005);
    expect(Math.abs(dollars(row?.['cost/success'] ?? '') - tokensTimesPrice / want.successes)).toBeLessThanOrEqual(0.005);
    // analyze --json: the same numbers, unrounded.
    const record = arms.find((a) => a.arm === arm);
    expect(record?.costUsd).toBeCloseTo(tokensTimesPrice, 9);
    expect(record?.costPerSuccessUsd).toBeCloseTo(tokensTimesPrice / want.successes, 9);
    expect(record?.unitsMissingCost).toBe(0);
    // The report's arm table: the row of this arm carries both cells.
    const cells = new RegExp(`${arm}</th>[\\s\\S]*?<td class="cost"[^>]*>([^<]+)</td><td class="cost"[^>]*>([^<]+)</td>`).exec(report);
    expect(cells, `report row for ${arm}`).not.toBeNull();
    expect(Math.abs(dollars(cells?.[1] ?? '') - tokensTimesPrice)).toBeLessThanOrEqual(0.005);
    expect(Math.abs(dollars(cells?.[2] ?? '') - tokensTimesPrice / want.successes)).toBeLessThanOrEqual(0.005);
  }
  expect(report).toContain('prices: default table of 2026-12-01 + the config');
  const manifest = JSON.parse(readFileSync(join(runDir, 'manifest.json'), 'utf8')) as Manifest;
  expect(manifest.pricing?.models['sim-small']).toEqual({ input: 2000, cached_input: 2000, output: 2000, source: 'config' });
});

test('--pricing FILE overrides the config; input and output priced apart; runs list sums the calls', async () => {
  const experiment = writeExperiment({ provider: '{ preset: sim }', cases: 8, extra: 'pricing: { sim-small: { input: 1, output: 1 } }' });
  const file = join(experiment.dir, 'prices.yaml');
  writeFileSync(file, '# USD per million tokens\nsim-small: { input: 1000, output: 3000 }\n');
  const run = await runCli(['run', experiment.configPath, '--out', experiment.runsDir, '--run-id', 'filed', '--quiet', '--sim-latency-scale', '0', '--no-report', '--pricing', file], { cwd: experiment.dir });
  expect(run.code, run.stderr).toBe(0);
  const runDir = join(experiment.runsDir, 'filed');
  const expected = expectedCosts(runDir, { input: 1000, output: 3000 });
  const table = terminalTable(run.stdout);
  for (const [arm, want] of expected) expect(Math.abs(dollars(table.get(arm)?.['cost'] ?? '') - want.cost)).toBeLessThanOrEqual(0.005);
  const manifest = JSON.parse(readFileSync(join(runDir, 'manifest.json'), 'utf8')) as Manifest;
  expect(manifest.pricing?.models['sim-small']?.source).toBe(`file:${file}`);

  const list = await runCli(['runs', 'list', '--json'], { cwd: experiment.dir });
  const listed = (JSON.parse(list.stdout) as Array<{ id: string; cost_usd: number; tokens: number; calls_unpriced: number }>)[0];
  const calls = readJsonl<CallRecord>(join(runDir, 'calls.jsonl')).records;
  expect(listed?.tokens).toBe(calls.reduce((a, c) => a + (c.total_tokens ?? 0), 0));
  expect(listed?.cost_usd).toBeCloseTo(calls.reduce((a, c) => a + ((c.prompt_tokens ?? 0) * 1000 + (c.completion_tokens ?? 0) * 3000) / 1e6, 0), 9);
  expect(listed?.calls_unpriced).toBe(0);

  // A resumed run keeps the prices it started with.
  const resumed = await runCli(['run', '--resume', 'filed', '--pricing', file], { cwd: experiment.dir });
  expect(resumed.code).toBe(2);
  expect(resumed.stderr).toContain('keeps the prices it started with');
});

test('no price: cost_usd is null on every record (never 0), no cost column, analyze --json says null', async () => {
  const experiment = writeExperiment({ provider: '{ preset: sim }', cases: 4 });
  const run = await runCli(['run', experiment.configPath, '--out', experiment.runsDir, '--run-id', 'free', '--quiet', '--sim-latency-scale', '0', '--no-report'], { cwd: experiment.dir });
  expect(run.code, run.stderr).toBe(0);
  const runDir = join(experiment.runsDir, 'free');
  const calls = readJsonl<CallRecord>(join(runDir, 'calls.jsonl')).records;
  expect(calls.length).toBeGreaterThan(0);
  for (const call of calls) {
    expect(call).toHaveProperty('cost_usd');
    expect(call.cost_usd).toBeNull();
  }
  for (const result of readJsonl<ResultRecord>(join(runDir, 'results.jsonl')).records) expect(result.cost_usd).toBeNull();
  expect(run.stdout).not.toMatch(/\bcost\b/);
  const json = await runCli(['analyze', runDir, '--json', '--no-report']);
  for (const arm of (JSON.parse(json.stdout) as { arms: ArmJson[] }).arms) {
    expect(arm.costUsd).toBeNull();
    expect(arm.costPerSuccessUsd).toBeNull();
  }
});

test('a bad price is a usage error naming file, line and key — before any run directory exists', async () => {
  const experiment = writeExperiment({ provider: '{ preset: sim }', cases: 4 });
  const file = join(experiment.dir, 'prices.yaml');
  writeFileSync(file, 'sim-small:\n  input: 1\n  cahed_input: 0.1\n  output: -2\n');
  const run = await runCli(['run', experiment.configPath, '--out', experiment.runsDir, '--pricing', file]);
  expect(run.code).toBe(2);
  expect(run.stderr).toContain(`${file}:3:3: sim-small.cahed_input`);
  expect(run.stderr).toContain('cached_input');
  expect(run.stderr).toContain(`${file}:4:`);
  expect(run.stderr).not.toContain('    at ');
  expect(existsSync(experiment.runsDir)).toBe(false);
  const inConfig = writeExperiment({ provider: '{ preset: sim }', cases: 4, extra: 'pricing: { sim-small: { input: 1, outptu: 2 } }' });
  const validate = await runCli(['validate', inConfig.configPath]);
  expect(validate.code).toBe(2);
  expect(validate.stderr).toContain('pricing.sim-small.outptu');
});

test('analyze --ledger: seed-format rows are priced by their model (defaults, --pricing over them)', async () => {
  const experiment = writeExperiment({ provider: '{ preset: sim }', cases: 1 });
  const file = join(experiment.dir, 'ledger.jsonl');
  const rows: string[] = [];
  for (let i = 0; i < 10; i++) {
    rows.push(JSON.stringify({ run_id: 'bf-seed', case_id: `c${i}`, arm: 'baseline_single', n: 1, model: 'gpt-5.4', prompt_tokens: 1000, completion_tokens: 100, total_tokens: 1100, passed: i < 5 }));
    rows.push(JSON.stringify({ run_id: 'bf-seed', case_id: `c${i}`, arm: 'candidate_single', n: 1, model: 'house-model', prompt_tokens: 1000, completion_tokens: 100, total_tokens: 1100, passed: i < 8 }));
  }
  writeFileSync(file, `${rows.join('\n')}\n`);
  const arms = async (...extra: string[]): Promise<ArmJson[]> => {
    const result = await runCli(['analyze', '--ledger', file, '--json', '--rounds', '200', ...extra]);
    expect(result.code, result.stderr).toBe(0);
    return (JSON.parse(result.stdout) as { arms: ArmJson[] }).arms;
  };
  // gpt-5.4 at the 2026-12-01 default price: $2.50 in, $15 out per million.
  const defaults = await arms();
  expect(defaults.find((a) => a.arm === 'baseline_single')?.costUsd).toBeCloseTo(10 * (1000 * 2.5 + 100 * 15) / 1e6, 12);
  expect(defaults.find((a) => a.arm === 'candidate_single')?.costUsd).toBeNull();
  const prices = join(experiment.dir, 'prices.yaml');
  writeFileSync(prices, 'house-model: { input: 1, output: 2 }\n');
  const priced = await arms('--pricing', prices);
  expect(priced.find((a) => a.arm === 'candidate_single')?.costUsd).toBeCloseTo(10 * (1000 + 200) / 1e6, 12);
  expect(priced.find((a) => a.arm === 'candidate_single')?.costPerSuccessUsd).toBeCloseTo(10 * (1000 + 200) / 1e6 / 8, 12);
});
