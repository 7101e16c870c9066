/**
 * `--db URL` for any command: the URL from the flag or ISOBUDGET_DATABASE_URL, connected and
 * checked against this build's schema (exit 2 with "run `isobudget db migrate --db URL`" when
 * it is behind) before the command does anything else.
 */
import { databaseUrl } from '../../config/database-url.js';
import { IsobudgetError } from '../../core/errors.js';
import type { Database } from '../../db/spec.js';
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
