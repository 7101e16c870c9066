/**
 * The direction audit on a generated year of run and gateway ledgers: rising tokens with flat
 * pass@1 is cost drift; rising pass@1 at flat tokens is not (issue 7, "must show").
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { auditLedgers } from '../src/audit/audit.js';
import { readLedgers } from '../src/audit/read-ledgers.js';
import { syntheticLedgers, type LedgerTrendSpec } from '../src/audit/synthetic-ledgers.js';
import { runCli } from './support/cli.js';

const YEAR: LedgerTrendSpec = { start: '2026-01', months: 12, runsPerMonth: 2, casesPerRun: 150, gatewaySessionsPerDay: 6, tokenGrowth: 0, passSlope: 0, bestOfNSlope: 0, retrySlope: 0 };
const SINCE = Date.parse('2026-01-01T00:00:00Z');
const UNTIL = Date.parse('2026-12-31T23:59:59Z');

function writeYear(spec: LedgerTrendSpec): { runs: string; gateway: string } {
  const root = mkdtempSync(join(tmpdir(), 'isobudget-audit-'));
  const ledgers = syntheticLedgers(spec);
  for (const run of ledgers.runs) {
    const dir = join(root, 'runs', run.runId);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'results.jsonl'), run.results.map((r) => `${JSON.stringify(r)}\n`).join(''));
    writeFileSync(join(dir, 'calls.jsonl'), run.calls.map((c) => `${JSON.stringify(c)}\n`).join(''));
  }
  mkdirSync(join(root, 'gateway'));
  for (const [day, calls] of ledgers.gateway) writeFileSync(join(root, 'gateway', `calls-${day}.jsonl`), calls.map((c) => `${JSON.stringify(c)}\n`).join(''));
  return { runs: join(root, 'runs'), gateway: join(root, 'gateway') };
}

const audit = (dirs: { runs: string; gateway: string }) =>
  auditLedgers(readLedgers({ runsDir: dirs.runs, gatewayDir: dirs.gateway, since: SINCE, until: UNTIL }), { since: SINCE, until: UNTIL, unit: 'month' });

describe('direction audit over a generated year', () => {
  test('rising tokens, output length, Best-of-N usage and retries with flat pass@1 → cost drift flagged', () => {
    const result = audit(writeYear({ ...YEAR, tokenGrowth: 0.05, bestOfNSlope: 0.03, retrySlope: 0.03 }));
    expect(result.periods).toHaveLength(12);
    expect(result.trends.tokens_per_task.direction).toBe('rising');
    expect(result.trends.output_length.direction).toBe('rising');
    expect(result.trends.bestofn_rate.direction).toBe('rising');
    expect(result.trends.retries_per_task.direction).toBe('rising');
    expect(result.trends.pass_at_1.direction).toBe('flat');
    expect(result.drift).toMatchObject({ status: 'cost_drift', flagged: true });
    expect(result.drift.reason).toContain('all four cost measures rise');
  });

  test('rising tokens alone with flat pass@1 → still cost drift, naming what rises', () => {
    const result = audit(writeYear({ ...YEAR, tokenGrowth: 0.05 }));
    expect(result.drift.flagged).toBe(true);
    expect(result.drift.rising).toEqual(['output_length', 'tokens_per_task']);
  });

  test('rising pass@1 at flat tokens → not flagged', () => {
    const result = audit(writeYear({ ...YEAR, passSlope: 0.02 }));
    expect(result.trends.pass_at_1.direction).toBe('rising');
    expect(result.trends.tokens_per_task.direction).toBe('flat');
    expect(result.drift).toMatchObject({ status: 'no_drift', flagged: false });
  });

  test('rising tokens that buy rising pass@1 → not cost drift', () => {
    const result = audit(writeYear({ ...YEAR, tokenGrowth: 0.05, passSlope: 0.02 }));
    expect(result.drift.flagged).toBe(false);
    expect(result.drift.reason).toContain('pass@1 rises too');
  });

  test('flat everything → not flagged; three months → not enough periods for a claim', () => {
    expect(audit(writeYear(YEAR)).drift.flagged).toBe(false);
    const short = writeYear({ ...YEAR, months: 3, tokenGrowth: 0.3 });
    expect(audit(short).drift.status).toBe('insufficient_data');
  });

  test('CLI: --gate exits 10 on drift, writes the HTML page with trend charts; --json carries the flag', async () => {
    const dirs = writeYear({ ...YEAR, tokenGrowth: 0.05 });
    const html = join(dirs.runs, '..', 'audit.html');
    const args = ['audit', '--since', '2026-01-01', '--until', '2026-12-31T23:59:59Z', '--runs', dirs.runs, '--gateway', dirs.gateway, '--by', 'month'];
    const text = await runCli([...args, '--html', html, '--gate']);
    expect(text.code, text.stderr).toBe(10);
    expect(text.stdout).toContain('COST DRIFT');
    expect(text.stdout).toContain('2026-12');
    expect(existsSync(html)).toBe(true);
    const page = readFileSync(html, 'utf8');
    expect(page).toContain('<svg');
    expect(page).toContain('role-mark');
    expect(page).not.toMatch(/https?:\/\/(?!www\.w3\.org)/);
    const json = await runCli([...args, '--json']);
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout).drift.flagged).toBe(true);
    const weekly = await runCli(['audit', '--since', '90d', '--until', '2026-12-31', '--runs', dirs.runs]);
    expect(weekly.stdout).toContain('by week');
  });

  test('CLI: bad --since and --by are usage errors', async () => {
    expect((await runCli(['audit', '--since', 'soon'])).code).toBe(2);
    expect((await runCli(['audit', '--by', 'day'])).code).toBe(2);
  });
});
