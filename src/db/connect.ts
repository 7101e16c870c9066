/**
 * Opening a Postgres pool, with errors the user can act on. The URL's password never
 * appears in a message: `describeDatabase` is what errors and logs show.
 */
import pg from 'pg';
import { IsobudgetError } from '../core/errors.js';
import type { Database } from './spec.js';
import { isTooManyConnections } from './connection-errors.js';

export interface PoolOptions {
  /** Shown in pg_stat_activity: which isobudget process holds a connection. */
  applicationName: string;
  /** Connections this process may hold (one pool per process; pgbouncer beyond a fleet). */
  max?: number;
  /** Give up connecting after this long (ms). */
  connectTimeoutMs?: number;
}

/** `postgres://user@host:port/db` — no password, no query (which may carry one). */
export function describeDatabase(url: string): string {
  try {
    const parsed = new URL(url);
    const user = parsed.username ? `${decodeURIComponent(parsed.username)}@` : '';
    return `${parsed.protocol}//${user}${parsed.host}${parsed.pathname}`;
  } catch {
    return '(unparseable database URL)';
  }
}

/** Checks the URL's shape before any connection is attempted. */
export function checkDatabaseUrl(url: string, source: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new IsobudgetError('usage', `${source} is not a URL`, { hint: 'use postgres://USER@HOST:5432/DATABASE (trust or password auth)' });
  }
  if (parsed.protocol !== 'postgres:' && parsed.protocol !== 'postgresql:') {
    throw new IsobudgetError('usage', `${source} must start with postgres:// or postgresql://, got ${parsed.protocol}//`, {
      hint: 'use postgres://USER@HOST:5432/DATABASE',
    });
  }
  return url;
}

export function openPool(url: string, options: PoolOptions): Database {
  const pool = new pg.Pool({
    connectionString: url,
    application_name: options.applicationName,
    max: options.max ?? 10,
    connectionTimeoutMillis: options.connectTimeoutMs ?? 5000,
  });
  // An idle client that loses its server (restart, network) must not crash the process:
  // the next query gets the error instead.
  pool.on('error', () => {});
  // A client checked out of the pool has no listener of the pool's: a server restart or a cut
  // session (pg_terminate_backend) would be an unhandled 'error' event and kill the process.
  // Its query gets the error instead, and the pool drops the broken client on release.
  pool.on('connect', (client) => client.on('error', () => {}));
  return pool;
}

/** Connects once, so a wrong URL or a stopped server is one clear line (exit 2), not a stack. */
export async function probeDatabase(pool: Database, url: string): Promise<void> {
  try {
    const client = await pool.connect();
    client.release();
  } catch (error) {
    throw connectionFailure(error, url, pool.options.max);
  }
}

/**
 * A failure to connect as the user can act on it: a full connection table (SQLSTATE 53300)
 * is named so, with this process's pool size in the hint; anything else asks whether the
 * server is reachable.
 */
export function connectionFailure(error: unknown, url: string, poolSize: number | undefined): IsobudgetError {
  if (isTooManyConnections(error)) {
    return new IsobudgetError('db_too_many_connections', `cannot connect to ${describeDatabase(url)}: too many connections (SQLSTATE 53300: the server's max_connections is used up)`, {
      hint: `this process opens up to ${poolSize ?? 10} connections (its pool); lower --concurrency or the number of processes, raise max_connections on the server, or put pgbouncer in front of a large fleet`,
    });
  }
  const reason = error instanceof Error ? (error as NodeJS.ErrnoException).code ?? error.message : String(error);
  return new IsobudgetError('db_unreachable', `cannot connect to ${describeDatabase(url)}: ${scrubPassword(reason, url)}`, {
    hint: 'is PostgreSQL running and reachable? (e.g. `pg_isready -h HOST`); check the URL given by --db or ISOBUDGET_DATABASE_URL',
  });
}

function scrubPassword(text: string, url: string): string {
  let password = '';
  try {
    password = decodeURIComponent(new URL(url).password);
  } catch {
    return text;
  }
  return password ? text.split(password).join('***') : text;
}
