/**
 * `--db URL` for any command: the URL from the flag or ISOBUDGET_DATABASE_URL, connected and
 * checked against this build's schema (exit 2 with "run `isobudget db migrate --db URL`" when
 * it is behind) before the command does anything else.
 */
import { databaseUrl } from '../../config/database-url.js';
import { IsobudgetError } from '../../core/errors.js';
import type { Database } from '../../db/spec.js';
import type { MemoryStore } from '../../memory/store/spec.js';
import type { CliIO } from '../io.js';

/** The team database of this command, or undefined when neither --db nor the env var is given. */
export async function openTeamDatabase(flag: string | undefined, io: CliIO, command: string, max?: number): Promise<Database | undefined> {
  const target = databaseUrl(flag, io.env);
  if (!target) return undefined;
  const { openDatabase } = await import('../../db/index.js');
  return openDatabase(target.url, { applicationName: `isobudget ${command}`, source: target.source, ...(max === undefined ? {} : { max }) });
}

export async function requireTeamDatabase(flag: string | undefined, io: CliIO, command: string, max?: number): Promise<Database> {
  const db = await openTeamDatabase(flag, io, command, max);
  if (!db) throw new IsobudgetError('usage', `${command}: no database: pass --db URL or set ISOBUDGET_DATABASE_URL`, { hint: 'e.g. --db postgres://USER@HOST:5432/DATABASE (then `isobudget db migrate --db URL` once)' });
  return db;
}

/** The value of `--name VALUE` / `--name=VALUE` in raw argv (for choosing a backend before parsing). */
export function rawFlag(argv: readonly string[], name: string): string | undefined {
  for (const [i, arg] of argv.entries()) {
    if (arg === `--${name}`) return argv[i + 1];
    if (arg.startsWith(`--${name}=`)) return arg.slice(name.length + 3);
  }
  return undefined;
}

/**
 * How a memory/review/gate command opens the governance store: `--db URL` → the team
 * database; else `--store PATH` → that SQLite file; else ISOBUDGET_DATABASE_URL → the team
 * database; else the default SQLite file. Same interface either way.
 */
export async function governanceStoreOpener(argv: readonly string[], io: CliIO, command: string): Promise<(path: string | undefined) => MemoryStore> {
  const { DEFAULT_STORE_PATH, openMemoryStore } = await import('../../memory/store/open.js');
  const sqlite = (path: string | undefined): MemoryStore => openMemoryStore(path ?? DEFAULT_STORE_PATH, io.cwd);
  const flag = rawFlag(argv, 'db');
  if (argv.includes('--help') || argv.includes('-h')) return sqlite; // help only: no connection
  if (flag === undefined && rawFlag(argv, 'store') !== undefined) return sqlite;
  const db = await openTeamDatabase(flag, io, command);
  if (!db) return sqlite;
  const { PostgresMemoryStore } = await import('../../memory/store/postgres-store.js');
  const store = new PostgresMemoryStore(db, () => void db.end().catch(() => undefined));
  return () => store;
}
