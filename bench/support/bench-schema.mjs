/**
 * A PostgreSQL schema of a bench's own, migrated by the built CLI: the admin client (for the
 * bench's own reads and the final DROP), the schema's name and its URL, and a synchronous CLI
 * runner. Without a server the bench is skipped (exit 0) with one line naming it.
 */
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import pg from 'pg';

export async function migratedBenchSchema({ bench, prefix, serverUrl, bin }) {
  const schema = `${prefix}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl, connectionTimeoutMillis: 3000 });
  try {
    await admin.connect();
  } catch (error) {
    process.stderr.write(`bench ${bench}: skipped, no PostgreSQL at ${serverUrl.replace(/:[^:@/]*@/, ':***@')} (${error.code ?? error.message})\n`);
    process.exit(0);
  }
  await admin.query(`CREATE SCHEMA ${schema}`);
  const url = new URL(serverUrl);
  url.searchParams.set('options', `-c search_path=${schema}`);
  const dbUrl = url.toString();
  const cli = (...args) => {
    const out = spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8' });
    if (out.status !== 0) throw new Error(`isobudget ${args.slice(0, 3).join(' ')} failed: ${out.stderr}`);
    return out.stdout.trim();
  };
  cli('db', 'migrate', '--db', dbUrl);
  return { admin, schema, dbUrl, cli };
}
