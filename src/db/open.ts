/** One call for every `--db` command: check the URL, connect, and check the schema is current. */
import { checkDatabaseUrl, describeDatabase, openPool, probeDatabase } from './connect.js';
import { requireCurrentSchema } from './migrate.js';
import { MIGRATIONS } from './migrations/index.js';
import type { Database } from './spec.js';

export async function openDatabase(url: string, options: { applicationName: string; max?: number; source?: string }): Promise<Database> {
  checkDatabaseUrl(url, options.source ?? '--db');
  const pool = openPool(url, { applicationName: options.applicationName, ...(options.max === undefined ? {} : { max: options.max }) });
  try {
    await probeDatabase(pool, url);
    await requireCurrentSchema(pool, MIGRATIONS, describeDatabase(url));
    return pool;
  } catch (error) {
    await pool.end().catch(() => {});
    throw error;
  }
}
