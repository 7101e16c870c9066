/**
 * Postgres for team-mode tests: every test file gets its own schema (dropped afterwards),
 * so tests run side by side on one server. Without a server the Postgres tests are skipped
 * with one line saying so; CI (.ci/run) starts the machine's server, so there they run.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';

/** The server tests use: $ISOBUDGET_TEST_DATABASE_URL, else the machine's local one (trust auth). */
export const TEST_DATABASE_URL = process.env.ISOBUDGET_TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

let availability: Promise<string | undefined> | undefined;

/** undefined when a server answers; otherwise why not (for the skip message). */
export function postgresUnavailable(): Promise<string | undefined> {
  availability ??= (async () => {
    const client = new pg.Client({ connectionString: TEST_DATABASE_URL, connectionTimeoutMillis: 2000 });
    try {
      await client.connect();
      await client.query('SELECT 1');
      return undefined;
    } catch (error) {
      return error instanceof Error ? ((error as NodeJS.ErrnoException).code ?? error.message) : String(error);
    } finally {
      await client.end().catch(() => {});
    }
  })();
  return availability;
}

/** For `describe.skipIf(...)`: resolves once at import (top-level await in the test file). */
export async function skipWithoutPostgres(area: string): Promise<boolean> {
  const reason = await postgresUnavailable();
  if (reason !== undefined) process.stderr.write(`skipped: ${area} needs PostgreSQL at ${TEST_DATABASE_URL.replace(/:[^:@/]*@/, ':***@')} (${reason}); .ci/run starts one\n`);
  return reason !== undefined;
}

export interface TestSchema {
  /** A URL whose connections see only this schema (search_path). */
  url: string;
  schema: string;
  drop(): Promise<void>;
}

/** A fresh, empty schema; `url` sets search_path to it for every connection. */
export async function freshSchema(prefix = 't'): Promise<TestSchema> {
  const schema = `${prefix}_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await admin.connect();
  try {
    await admin.query(`CREATE SCHEMA ${schema}`);
  } finally {
    await admin.end();
  }
  const url = new URL(TEST_DATABASE_URL);
  url.searchParams.set('options', `-c search_path=${schema}`);
  return {
    url: url.toString(),
    schema,
    async drop() {
      const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
      await client.connect();
      try {
        await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      } finally {
        await client.end();
      }
    },
  };
}
