import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { finishReason } from '../../core/finish-reason.js';
import { makeUsage } from '../../core/usage.js';
import { DailyLedger } from './daily-ledger.js';
import { buildGatewayIndex } from './gateway-index.js';
import { buildGatewayRecord } from './gateway-record.js';
import { renderSummary, summarizeGatewayIndex } from './ledger-summary.js';

function record(ts: string, usage = makeUsage({ inputTokens: 10, outputTokens: 5 }), gatewayMs: number | null = 0.12) {
  return buildGatewayRecord(
    { callId: 'c-1', keyId: 'k1', tags: { run: 'r1', case: 'c1', arm: 'candidate_single', path: '2', n: '4' }, sessionId: 's1', endpoint: '/v1/messages', protocol: 'anthropic-messages', baseUrl: 'https://api.example', model: 'm', stream: true, attempt: 1 },
    { usage, finish: finishReason('stop', 'end_turn'), maxTokens: 100, requestedMaxTokens: 128000, ttfbMs: 3, gatewayMs: gatewayMs ?? undefined, status: 200, error: undefined, note: undefined },
    12,
    new Date(ts),
  );
}

test('records rotate into one file per UTC day; the index and summary read them all', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'isobudget-gw-ledger-'));
  const ledger = new DailyLedger(dir);
  ledger.write(record('2026-11-28T23:59:59.000Z'));
  ledger.write(record('2026-11-29T00:00:01.000Z'));
  ledger.write(record('2026-11-29T10:00:00.000Z', makeUsage({ inputTokens: 10, outputTokens: undefined })));
  await ledger.close();
  expect(readdirSync(dir).sort()).toEqual(['calls-2026-11-28.jsonl', 'calls-2026-11-29.jsonl']);
  const lines = readFileSync(join(dir, 'calls-2026-11-29.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
  expect(lines).toHaveLength(2);
  expect(lines[0]).toMatchObject({ role: 'gateway', run_id: 'r1', case_id: 'c1', arm: 'candidate_single', path: 2, n: 4, key_id: 'k1', session_id: 's1', total_tokens: 15, usage_missing: false });
  // Unknown is not zero: the field is absent, and the record says usage is missing.
  expect(lines[1]?.['total_tokens']).toBeUndefined();
  expect(lines[1]?.['usage_missing']).toBe(true);
  const index = buildGatewayIndex(dir);
  expect(index).toMatchObject({ calls: 3, days: 2 });
  const summary = summarizeGatewayIndex(index.file);
  expect(summary.days.map((d) => [d.group, d.calls, d.tokens, d.missing])).toEqual([['2026-11-28', 1, 15, 0], ['2026-11-29', 2, 15, 1]]);
  expect(renderSummary(summary)).toContain('r1 / candidate_single');
  expect(lines[0]?.['gateway_ms']).toBe(0.12);
  expect(summary.gatewayTime).toEqual({ calls: 3, p50: 0.12, p99: 0.12, max: 0.12 });
});

test('gateway time: nearest-rank p50/p99 over forwarded calls only', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'isobudget-gw-ledger-'));
  const ledger = new DailyLedger(dir);
  // 200 forwarded calls taking 0.01 … 2.00 ms, shuffled, and 5 never forwarded.
  const times = Array.from({ length: 200 }, (_, i) => (i + 1) / 100);
  for (let i = 0; i < times.length; i += 1) ledger.write(record('2026-11-29T10:00:00.000Z', undefined, times[(i * 77) % 200]));
  for (let i = 0; i < 5; i += 1) ledger.write(record('2026-11-29T10:00:01.000Z', undefined, null));
  await ledger.close();
  const summary = summarizeGatewayIndex(buildGatewayIndex(dir).file);
  // ⌈0.5·200⌉ = 100th smallest = 1.00 ms; ⌈0.99·200⌉ = 198th = 1.98 ms.
  expect(summary.gatewayTime).toEqual({ calls: 200, p50: 1, p99: 1.98, max: 2 });
  expect(renderSummary(summary)).toContain('p50 1 ms, p99 1.98 ms, max 2 ms over 200 forwarded calls');
});

test('a record without tags gets gateway defaults and the session as its case', () => {
  const entry = buildGatewayRecord(
    { callId: undefined, keyId: 'k', tags: {}, sessionId: 'sess', endpoint: '/v1/responses', protocol: 'openai-responses', baseUrl: 'u', model: 'm', stream: true, attempt: 1 },
    { usage: undefined, finish: finishReason('budget_exhausted', 'budget_spent'), maxTokens: 0, requestedMaxTokens: undefined, ttfbMs: undefined, gatewayMs: undefined, status: 429, error: 'budget spent', note: undefined },
    1,
    new Date('2026-01-01T00:00:00Z'),
  );
  expect(entry).toMatchObject({ run_id: 'gateway', case_id: 'sess', arm: 'gateway', n: 1, path: 0, split: 'val', usage_missing: false, total_tokens: undefined });
});
