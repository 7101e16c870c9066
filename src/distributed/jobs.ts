/**
 * The unit queue: pg-boss on the team database, sharing the process's pool. Its tables live
 * in their own schema next to ours — `isobudget_jobs` beside `public`, `<schema>_jobs` beside
 * any other schema the URL's search_path picks (so each test schema gets its own queue).
 */
import PgBoss from 'pg-boss';
import type { Database } from '../db/spec.js';

export const UNIT_QUEUE = 'isobudget-units';

/** What a unit's job carries: enough to find the run and the unit, nothing else. */
export interface UnitJob {
  run_id: string;
  unit_key: string;
}

export interface JobQueue {
  boss: PgBoss;
  /** Schema of pg-boss's tables. */
  schema: string;
  stop(): Promise<void>;
}

export interface QueueOptions {
  /** How often expired leases are turned into retries (s); one process per interval does it. */
  maintenanceSeconds?: number;
  /** Run pg-boss's maintenance (expiry → retry) in this process. */
  supervise?: boolean;
}

export async function jobSchemaFor(db: Database): Promise<string> {
  const current = (await db.query<{ schema: string }>('SELECT current_schema() AS schema')).rows[0]?.schema ?? 'public';
  return current === 'public' ? 'isobudget_jobs' : `${current}_jobs`;
}

export async function openJobQueue(db: Database, options: QueueOptions = {}): Promise<JobQueue> {
  const schema = await jobSchemaFor(db);
  const boss = new PgBoss({
    db: { executeSql: (text: string, values: unknown[]) => db.query(text, values) },
    schema,
    supervise: options.supervise ?? true,
    schedule: false,
    maintenanceIntervalSeconds: options.maintenanceSeconds ?? 5,
  });
  // Errors of background maintenance (a dropped connection) must not crash a worker: the next tick retries.
  boss.on('error', () => {});
  await boss.start();
  await boss.createQueue(UNIT_QUEUE);
  return { boss, schema, stop: () => boss.stop({ graceful: false, wait: true }) };
}
