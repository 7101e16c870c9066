/**
 * Issue 15 item 3, the gateway and the audit: the gateway costs every call it records
 * (`cost_usd`), `gateway ledger show` sums money beside tokens per day and per run/arm, and
 * `audit` shows cost per period beside tokens per task. Unknown stays unknown.
 */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { DailyLedger, ledgerFileFor } from '../src/gateway/ledger/daily-ledger.js';
import { buildGatewayRecord, type GatewayCallRecord } from '../src/gateway/ledger/gateway-record.js';
import { pricedSink } from '../src/gateway/ledger/priced-sink.js';
import { makeUsage } from '../src/core/usage.js';
import { finishReason } from '../src/core/finish-reason.js';
import { LEDGER_SCHEMA_VERSION, type ResultRecord } from '../src/ledger/records.js';
import { buildPriceTable } from '../src/pricing/build-table.js';
import { runCli } from './support/cli.js';

const NOW = new Date();

function call(model: string, run: string, prompt: number | undefined, completion: number | undefined, cached = 0): GatewayCallRecord {
  return buildGatewayRecord(
    { keyId: 'ibk-test', callId: undefined, tags: { run, arm: 'candidate_single', case: `c-${prompt}` }, sessionId: 's1', endpoint: '/v1/messages', protocol: 'anthropic-messages', baseUrl: 'https://api.anthropic.com', model, stream: false, attempt: 1 },
    { usage: prompt === undefined ? makeUsage({}) : makeUsage({ inputTokens: prompt, outputTokens: completion, cachedTokens: cached }), finish: finishReason('stop', 'end_turn'), maxTokens: 1000, requestedMaxTokens: 1000, ttfbMs: 5, gatewayMs: 0.5, status: 200, error: undefined, note: undefined },
    20,
    NOW,
  );
}

test('the gateway costs each call; gateway ledger show sums USD beside tokens; --pricing prices the unpriced', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'isobudget-gw-money-'));
  const ledgerDir = join(dataDir, 'ledger');
  // The default table (2026-12-01): claude-sonnet-4-5 is $3 in, $0.30 cached, $15 out per million.
  const sink = pricedSink(new DailyLedger(ledgerDir, (line) => line), buildPriceTable());
  sink.write(call('claude-sonnet-4-5-20250929', 'run-a', 100_000, 20_000, 40_000));
  sink.write(call('claude-sonnet-4-5', 'run-a', 10_000, 2_000));
  sink.write(call('house-model', 'run-b', 1_000_000, 1_000_000));
  sink.write(call('claude-sonnet-4-5', 'run-b', undefined, undefined));
  await sink.close();
  const records = readFileSync(ledgerFileFor(ledgerDir, NOW.toISOString()), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as GatewayCallRecord);
  const first = (60_000 * 3 + 40_000 * 0.3 + 20_000 * 15) / 1e6;
  const second = (10_000 * 3 + 2_000 * 15) / 1e6;
  expect(records.map((r) => r.cost_usd)).toEqual([expect.closeTo(first, 12), expect.closeTo(second, 12), null, null]);

  const show = await runCli(['gateway', 'ledger', 'show', '--data-dir', dataDir]);
  expect(show.code, show.stderr).toBe(0);
  const runA = show.stdout.split('\n').find((l) => l.includes('run-a / candidate_single')) ?? '';
  expect(runA).toContain(`$${(first + second).toFixed(4)}`);
  const runB = show.stdout.split('\n').find((l) => l.includes('run-b / candidate_single')) ?? '';
  expect(runB).toContain('unknown (1 calls without a price)');

  const prices = join(dataDir, 'prices.yaml');
  writeFileSync(prices, 'house-model: { input: 1, output: 2 }\n');
  const priced = await runCli(['gateway', 'ledger', 'show', '--data-dir', dataDir, '--pricing', prices]);
  expect(priced.stdout.split('\n').find((l) => l.includes('run-b / candidate_single'))).toContain('$3.00');
});

test('audit: cost per period and per task beside tokens, from run results', async () => {
  const root = mkdtempSync(join(tmpdir(), 'isobudget-audit-money-'));
  const runDir = join(root, 'runs', 'bf-1');
  mkdirSync(runDir, { recursive: true });
  const ts = new Date(NOW.getTime() - 3 * 86_400_000).toISOString();
  const result = (id: string, cost: number | null): ResultRecord => ({
    schema_version: LEDGER_SCHEMA_VERSION, kind: 'result', run_id: 'bf-1', case_id: id, arm: 'candidate_single', variant: 'candidate', n: 1, epoch: 0, split: 'val',
    category: undefined, passed: true, passed_any: true, passes: 1, selected_path: 0, judge_score: undefined, paths: [], prompt_tokens: 100, completion_tokens: 50,
    total_tokens: 150, cost_usd: cost, calls_missing_usage: 0, calls: 1, retries: 0, budget: 1000, budget_exhausted: false, over_budget: false, latency_ms: 10, ts,
  });
  writeFileSync(join(runDir, 'results.jsonl'), [result('a', 0.25), result('b', 0.75), result('c', null)].map((r) => `${JSON.stringify(r)}\n`).join(''));
  const audit = await runCli(['audit', '--runs', join(root, 'runs'), '--since', '30d', '--json']);
  expect(audit.code, audit.stderr).toBe(0);
  const periods = (JSON.parse(audit.stdout) as { periods: Array<{ tasks: number; costUsd: number | null; costPerTaskUsd: number | null; tasksPriced: number }> }).periods;
  expect(periods).toHaveLength(1);
  expect(periods[0]).toMatchObject({ tasks: 3, tasksPriced: 2, costUsd: 1, costPerTaskUsd: 0.5 });
  const text = await runCli(['audit', '--runs', join(root, 'runs'), '--since', '30d']);
  expect(text.stdout).toMatch(/tokens\/task\s+cost\s+cost\/task/);
  expect(text.stdout).toContain('≥$1.00');
});
