/**
 * `runs wait` listens (LISTEN/NOTIFY) instead of polling: with both poll intervals at a
 * minute, the wait still ends as soon as the worker's last commit lands — each wake-up is a
 * commit's NOTIFY, and the number of reads stays near the number of commits, not of seconds.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { applyMigrations, MIGRATIONS, openPool, type Database } from '../src/db/index.js';
import { openJobQueue } from '../src/distributed/jobs.js';
import { submitRun } from '../src/distributed/submit.js';
import { waitForRun } from '../src/distributed/wait.js';
import { runWorker } from '../src/distributed/worker.js';
import { freshSchema, skipWithoutPostgres, type TestSchema } from '../src/test-support/postgres.js';
import { writeExperiment } from './support/experiment.js';

const skip = await skipWithoutPostgres('runs wait with LISTEN/NOTIFY');

describe.skipIf(skip)('runs wait listens', () => {
  let schema: TestSchema;
  let db: Database;
  beforeAll(async () => {
    schema = await freshSchema('notify');
    db = openPool(schema.url, { applicationName: 'notify', max: 12 });
    await applyMigrations(db, MIGRATIONS);
  });
  afterAll(async () => {
    await db?.end();
    const admin = new pg.Client({ connectionString: schema.url });
    await admin.connect();
    await admin.query(`DROP SCHEMA IF EXISTS ${schema.schema}_jobs CASCADE`).finally(() => admin.end());
    await schema?.drop();
  });

  test('a wait with minute-long poll intervals ends at the last commit', async () => {
    const experiment = writeExperiment({ provider: '{ preset: sim }', cases: 3, budget: '{ total_tokens_per_case: 2000, per_case_max_tokens: 128, best_of_n: [1] }' });
    const queue = await openJobQueue(db);
    try {
      const submitted = await submitRun({ db, queue, configPath: experiment.configPath, root: experiment.dir, outDir: experiment.runsDir, leaseSeconds: 60, runId: 'nt' });
      let reads = 0;
      const counting = new Proxy(db, {
        get(target, key, receiver) {
          if (key === 'query') {
            return (...args: Parameters<Database['query']>) => {
              if (String(args[0]).includes('FROM results r WHERE r.run_id')) reads += 1;
              return (target.query as (...a: unknown[]) => unknown)(...args);
            };
          }
          const value = Reflect.get(target, key, receiver) as unknown;
          return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
        },
      });
      const waiting = waitForRun({ db: counting, queue, runId: 'nt', pollMs: 60_000, listenPollMs: 60_000 });
      await new Promise((resolve) => setTimeout(resolve, 300));
      const own = await openJobQueue(db);
      try {
        await runWorker({ db, queue: own, concurrency: 2, untilIdle: true, signal: new AbortController().signal, root: experiment.dir, env: {}, pollMs: 100, simLatencyScale: 0 });
      } finally {
        await own.stop();
      }
      expect(await waiting).toEqual({ done: true, units: submitted.manifest.units_planned });
      // One read at the start, at most one per commit after it.
      expect(reads).toBeGreaterThanOrEqual(2);
      expect(reads).toBeLessThanOrEqual(submitted.manifest.units_planned + 1);
    } finally {
      await queue.stop();
    }
  }, 30_000);
});
