/**
 * `rate_limit` of a distributed run holds across workers, over real HTTP: two workers (each its
 * own pool, as on two machines) against a simulator that answers 30% of requests with 429 and
 * `retry-after: 1`. Request starts of the whole run are never closer than 1/requests_per_second,
 * and a 429 pauses the run for every worker.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { applyMigrations, MIGRATIONS, openPool, type Database } from '../src/db/index.js';
import { openJobQueue } from '../src/distributed/jobs.js';
import { submitRun } from '../src/distributed/submit.js';
import { runWorker } from '../src/distributed/worker.js';
import type { CallRecord } from '../src/ledger/records.js';
import { startSimServer, type SimServer } from '../src/providers/sim/index.js';
import { freshSchema, skipWithoutPostgres, type TestSchema } from '../src/test-support/postgres.js';
import { writeExperiment } from './support/experiment.js';

const skip = await skipWithoutPostgres('distributed rate limits');
const PER_SECOND = 8;
const INTERVAL_MS = 1000 / PER_SECOND;
/** Most a request starts after its slot on a loaded 2-core CI machine (measured: up to ~55 ms). */
const LAG_MS = 75;

describe.skipIf(skip)('rate limits across workers', () => {
  let schema: TestSchema;
  let sim: SimServer;
  let pools: Database[];
  beforeAll(async () => {
    schema = await freshSchema('rate');
    sim = await startSimServer({ seed: 4, faults: { seed: 9, rates: { http429: 0.3 }, retryAfterSeconds: 1 } });
    pools = [0, 1, 2].map((i) => openPool(schema.url, { applicationName: `rate-${i}`, max: 8 }));
    await applyMigrations(pools[0]!, MIGRATIONS);
  });
  afterAll(async () => {
    for (const pool of pools ?? []) await pool.end();
    await sim?.close();
    const admin = new pg.Client({ connectionString: schema.url });
    await admin.connect();
    await admin.query(`DROP SCHEMA IF EXISTS ${schema.schema}_jobs CASCADE`).finally(() => admin.end());
    await schema?.drop();
  });

  test('request starts stay 1/rate apart run-wide, and every worker waits out a 429', async () => {
    const experiment = writeExperiment({
      provider: `{ protocol: openai-chat, base_url: "${sim.url}/v1" }`,
      budget: '{ total_tokens_per_case: 2000, per_case_max_tokens: 128, best_of_n: [1] }',
      cases: 5,
      extra: `rate_limit: { requests_per_second: ${PER_SECOND} }`,
    });
    const queue = await openJobQueue(pools[0]!);
    const submitted = await submitRun({ db: pools[0]!, queue, configPath: experiment.configPath, root: experiment.dir, outDir: experiment.runsDir, leaseSeconds: 60, runId: 'rl' });
    await queue.stop();
    const signal = new AbortController().signal;
    await Promise.all([1, 2].map(async (i) => {
      const own = await openJobQueue(pools[i]!, { maintenanceSeconds: 1 });
      try {
        await runWorker({ db: pools[i]!, queue: own, concurrency: 3, untilIdle: true, signal, root: experiment.dir, env: {}, pollMs: 100 });
      } finally {
        await own.stop();
      }
    }));
    const db = pools[0]!;
    expect((await db.query('SELECT count(*)::int AS n FROM results')).rows[0].n).toBe(submitted.manifest.units_planned);
    const calls = (await db.query<{ record: CallRecord }>(`SELECT record FROM calls WHERE state = 'committed'`)).rows.map((r) => r.record);
    const limited = calls.filter((c) => c.status === 429);
    expect(limited.length).toBeGreaterThan(0);
    // Starts = completion − latency; both workers' calls, sorted. The limiter hands out slots
    // exactly 1/rate apart (one row, one UPDATE); a start is its slot plus the worker's lag (timer,
    // one query, a loaded CPU: tens of ms under CI load), never earlier. So any two starts k slots
    // apart are at least k intervals minus one lag apart — at k = 1 no two starts closer than
    // half an interval, and over longer windows the run-wide rate holds to within LAG_MS.
    // Per-worker pacing (2 workers) would put starts ~0 ms apart and double the rate per window.
    const starts = calls.map((c) => Date.parse(c.ts) - c.latency_ms).sort((a, b) => a - b);
    const closest = Math.min(...starts.slice(1).map((t, i) => t - starts[i]!));
    expect(closest).toBeGreaterThanOrEqual(INTERVAL_MS - LAG_MS);
    for (let i = 0; i < starts.length; i += 1) {
      for (let j = i + 1; j < starts.length; j += 1) {
        expect(starts[j]! - starts[i]!, `starts ${i}..${j}`).toBeGreaterThanOrEqual((j - i) * INTERVAL_MS - LAG_MS);
      }
    }
    // After each 429 (its record is written once its pause is), no request of either worker starts
    // until its retry-after (1 s) has run out — give or take one lag at either edge.
    for (const hit of limited) {
      const end = Date.parse(hit.ts);
      expect(starts.filter((t) => t > end + LAG_MS && t < end + 1000 - LAG_MS)).toEqual([]);
    }
  });
});
