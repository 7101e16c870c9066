/**
 * A fault-injecting upstream on 127.0.0.1 (429 + Retry-After, 500, connection reset, invalid
 * JSON, missing usage, slow responses): the run completes, every attempt is in the ledger,
 * missing usage is counted and flagged, nothing crashes.
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import { armMetrics } from '../src/analysis/arm-metrics.js';
import { readJsonl } from '../src/ledger/jsonl-reader.js';
import type { CallRecord, ResultRecord } from '../src/ledger/records.js';
import { runPaths } from '../src/ledger/run-dir.js';
import { startSimServer, type SimServer } from '../src/providers/sim/index.js';
import { runExperiment } from '../src/runner/run-experiment.js';
import { writeExperiment } from './support/experiment.js';

let server: SimServer;
beforeAll(async () => {
  server = await startSimServer({
    seed: 9,
    faults: { seed: 4, rates: { http429: 0.1, http500: 0.1, reset: 0.05, invalidJson: 0.05, missingUsage: 0.1, slow: 0.04 }, retryAfterSeconds: 0, slowMs: 1500 },
  });
});
afterAll(async () => {
  await server.close();
});

test('a run against a faulty upstream completes with every attempt recorded', async () => {
  const experiment = writeExperiment({
    provider: `{ protocol: openai-chat, base_url: "${server.url}/v1", timeout_ms: 500 }`,
    extra: 'n_mode: parallel',
    cases: 30,
  });
  const run = await runExperiment({ configPath: experiment.configPath, outDir: experiment.runsDir, env: {} });
  const paths = runPaths(run.runDir);
  const calls = readJsonl<CallRecord>(paths.calls).records;
  const results = readJsonl<ResultRecord>(paths.results).records;
  expect(run.interrupted).toBe(false);
  expect(results).toHaveLength(30 * 4);

  const failed = calls.filter((c) => c.error !== undefined);
  const statuses = new Set(failed.map((c) => c.status));
  expect(statuses.has(429)).toBe(true);
  expect(statuses.has(500)).toBe(true);
  expect(failed.some((c) => c.finish_reason_raw === 'connection')).toBe(true);
  expect(failed.some((c) => c.finish_reason_raw === 'invalid_response')).toBe(true);
  expect(failed.some((c) => c.finish_reason_raw === 'timeout')).toBe(true);
  // Every failed attempt that was retried is followed by a later attempt of the same path.
  for (const call of failed.filter((c) => c.retried)) {
    expect(calls.some((c) => c.case_id === call.case_id && c.arm === call.arm && c.path === call.path && c.attempt === call.attempt + 1)).toBe(true);
  }
  expect(results.reduce((acc, r) => acc + r.retries, 0)).toBe(failed.filter((c) => c.retried).length);

  // Attempts that may have been billed (5xx, reset, unparseable, timeout) are booked at their
  // reservation, counted in their unit's total; refused ones (429) are booked 0.
  const unknown = calls.filter((c) => c.note === 'outcome_unknown');
  expect(unknown.length).toBeGreaterThan(0);
  for (const call of unknown) {
    expect(call.usage_missing).toBe(true);
    expect(call.booked_tokens).toBe(call.reserved_tokens);
    expect(call.reserved_tokens).toBeGreaterThan(0);
  }
  for (const call of failed.filter((c) => c.status === 429)) expect(call).toMatchObject({ usage_missing: false, booked_tokens: 0 });
  expect(results.reduce((acc, r) => acc + (r.calls_outcome_unknown ?? 0), 0)).toBe(unknown.length);
  for (const result of results) {
    const booked = calls.filter((c) => c.case_id === result.case_id && c.arm === result.arm && c.epoch === result.epoch).reduce((acc, c) => acc + (c.booked_tokens ?? 0), 0);
    if (result.total_tokens !== undefined) expect(result.total_tokens, `${result.case_id} ${result.arm}`).toBe(booked);
    expect(booked).toBeLessThanOrEqual(result.budget);
  }

  // Missing usage on an answered call: flagged on the call, counted on the result, total unknown — never 0.
  const missing = calls.filter((c) => c.usage_missing && c.note !== 'outcome_unknown');
  expect(missing.length).toBeGreaterThan(0);
  for (const call of missing) expect(call.total_tokens).toBeUndefined();
  const unknownTotals = results.filter((r) => r.calls_missing_usage > 0);
  expect(unknownTotals.length).toBeGreaterThan(0);
  for (const result of unknownTotals) expect(result.total_tokens).toBeUndefined();
  const metrics = armMetrics(results);
  expect(metrics.reduce((acc, m) => acc + m.callsMissingUsage, 0)).toBe(missing.length);
  expect(metrics.reduce((acc, m) => acc + m.unitsMissingTokens, 0)).toBe(unknownTotals.length);
});
