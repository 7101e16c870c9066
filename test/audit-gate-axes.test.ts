/**
 * Issue 15: `audit --gate` with too little data to see a trend fails (exit 10, the reason on
 * stderr) instead of passing (item 8); the audit page's y axes start at zero, so a +7% rise
 * does not look like a cliff (item 10).
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { auditLedgers } from '../src/audit/audit.js';
import { readLedgers } from '../src/audit/read-ledgers.js';
import { renderAuditHtml } from '../src/audit/render-html.js';
import { syntheticLedgers, type LedgerTrendSpec } from '../src/audit/synthetic-ledgers.js';
import { main } from '../src/cli/main.js';
import { runCli } from './support/cli.js';

/** The CLI's entry point in this process: one real process (above) shows the exit code. */
async function inProcess(args: string[]): Promise<{ code: number; stderr: string }> {
  let stderr = '';
  const code = await main(args, { stdout: { write: () => undefined }, stderr: { write: (t) => void (stderr += t) }, env: {}, cwd: process.cwd(), signal: new AbortController().signal });
  return { code, stderr };
}

const YEAR: LedgerTrendSpec = { start: '2026-01', months: 12, runsPerMonth: 2, casesPerRun: 60, gatewaySessionsPerDay: 2, tokenGrowth: 0, passSlope: 0, bestOfNSlope: 0, retrySlope: 0 };
const SINCE = Date.parse('2026-01-01T00:00:00Z');
const UNTIL = Date.parse('2026-12-31T23:59:59Z');

function writeLedgers(spec: LedgerTrendSpec): { runs: string; gateway: string } {
  const root = mkdtempSync(join(tmpdir(), 'isobudget-audit-gate-'));
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

describe('audit --gate on insufficient data', () => {
  test('no ledgers at all, or three months: exit 10 with the reason; without --gate: 0', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'isobudget-audit-empty-'));
    const none = await runCli(['audit', '--since', '2026-01-01', '--until', '2026-12-31', '--runs', empty, '--gate']);
    expect(none.code, none.stderr).toBe(10);
    expect(none.stderr).toMatch(/^audit --gate: not enough data to decide \(too few periods with token data to test a trend; 0 tasks/);
    const short = writeLedgers({ ...YEAR, months: 3, tokenGrowth: 0.3 });
    const args = ['audit', '--since', '2026-01-01', '--until', '2026-12-31T23:59:59Z', '--runs', short.runs, '--gateway', short.gateway, '--by', 'month'];
    const gated = await inProcess([...args, '--gate']);
    expect(gated.code, gated.stderr).toBe(10);
    expect(gated.stderr).toContain('not enough data to decide');
    expect((await inProcess(args)).code).toBe(0);
  });
});

describe('audit page axes', () => {
  test('every trend chart’s y axis starts at zero, even for a +7% rise', async () => {
    const dirs = writeLedgers({ ...YEAR, tokenGrowth: 0.006 });
    const result = auditLedgers(readLedgers({ runsDir: dirs.runs, gatewayDir: dirs.gateway, since: SINCE, until: UNTIL }), { since: SINCE, until: UNTIL, unit: 'month' });
    const tokens = result.periods.map((p) => p.values.tokens_per_task ?? Number.NaN);
    expect((tokens.at(-1) ?? 0) / (tokens[0] ?? 1)).toBeLessThan(1.15);
    const { html, warnings } = await renderAuditHtml(result);
    expect(warnings).toEqual([]);
    // vega labels each axis for screen readers: "Y-axis for a linear scale with values from 0 to 1,200".
    const axes = [...html.matchAll(/aria-label="Y-axis[^"]*? values from ([^ "]+) to ([^ "]+)"/g)];
    expect(axes).toHaveLength(5);
    for (const [label, from] of axes) expect(Number((from ?? '').replace(/[,%]/g, '')), label).toBe(0);
  });
});
