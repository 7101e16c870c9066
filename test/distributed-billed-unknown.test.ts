/**
 * Issue 20 item 1 in team mode: workers run units through the runner's own runUnit, so an
 * attempt the upstream billed but never answered (past provider.timeout_ms) is booked at its
 * reservation in the unit's committed ledger too, and a retry needs a new reservation. Real
 * PostgreSQL, a real worker process, a mock upstream on 127.0.0.1 that bills on arrival.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { openPool } from '../src/db/index.js';
import { callCounts, callTotalsMismatch } from '../src/distributed/call-totals.js';
import { readJsonFile } from '../src/ledger/run-dir.js';
import { readJsonl } from '../src/ledger/jsonl-reader.js';
import type { Manifest } from '../src/ledger/manifest.js';
import type { CallRecord, ResultRecord } from '../src/ledger/records.js';
import { freshSchema, skipWithoutPostgres, type TestSchema } from '../src/test-support/postgres.js';
import { expectEveryBilledTokenBooked, unitOf } from './support/billed-units.js';
import { runCli } from './support/cli.js';
import { writeExperiment } from './support/experiment.js';
import { startMockUpstream, type MockUpstream } from './support/mock-upstream.js';

const skip = await skipWithoutPostgres('distributed billed-unknown attempts');
const B = 2000;
const CASES = 3;

describe.skipIf(skip)('a distributed run books attempts of unknown outcome', () => {
  let schema: TestSchema;
  let upstream: MockUpstream;
  beforeAll(async () => {
    schema = await freshSchema('billed');
    upstream = await startMockUpstream({ whoOf: unitOf, delayMs: (index) => (index % 2 === 1 ? 1500 : 0) });
  });
  afterAll(async () => {
    await upstream?.close();
    await schema?.drop();
  });

  test('every other request times out after billing: Σ billed ≤ B per unit and every billed token is booked', async () => {
    expect((await runCli(['db', 'migrate', '--db', schema.url])).code).toBe(0);
    const experiment = writeExperiment({
      provider: `{ protocol: openai-chat, base_url: "${upstream.url}/v1", timeout_ms: 400 }`,
      budget: `{ total_tokens_per_case: ${B}, per_case_max_tokens: 600, best_of_n: [1] }`,
      cases: CASES,
    });
    const submitted = await runCli(['run', experiment.configPath, '--db', schema.url, '--distributed', '--detach', '--run-id', 'billed'], { cwd: experiment.dir });
    expect(submitted.code, submitted.stderr).toBe(0);
    const worker = await runCli(['worker', '--db', schema.url, '--until-idle', '--concurrency', '2'], { cwd: experiment.dir });
    expect(worker.code, worker.stderr).toBe(0);
    const waited = await runCli(['runs', 'wait', 'billed', '--db', schema.url, '--json'], { cwd: experiment.dir });
    expect(waited.code, waited.stderr).toBe(0);

    const runDir = join(experiment.dir, 'runs', 'billed');
    const calls = readJsonl<CallRecord>(join(runDir, 'calls.jsonl')).records;
    const results = readJsonl<ResultRecord>(join(runDir, 'results.jsonl')).records;
    expect(results).toHaveLength(CASES * 2);
    const timedOut = calls.filter((c) => c.finish_reason_raw === 'timeout');
    expect(timedOut.length).toBeGreaterThanOrEqual(CASES);
    for (const call of timedOut) {
      expect(call).toMatchObject({ usage_missing: true, note: 'outcome_unknown' });
      expect(call.booked_tokens).toBe(call.reserved_tokens);
    }
    expectEveryBilledTokenBooked(B, calls, results, upstream.bills);
    // What analyze --db reads (call_totals) is what the finish counted from the calls themselves.
    const db = openPool(schema.url, { applicationName: 'billed test', max: 2 });
    try {
      expect(await callTotalsMismatch(db)).toBeUndefined();
      expect(await callCounts(db, 'billed')).toEqual(readJsonFile<Manifest>(join(runDir, 'manifest.json'), 'manifest.json').calls);
    } finally {
      await db.end();
    }
  });
});
