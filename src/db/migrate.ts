/**
 * Versioned migrations: applied in list order inside one transaction under an advisory lock,
 * so two processes migrating at once apply each change exactly once. Every command that takes
 * `--db` checks the schema first (`requireCurrentSchema`) and refuses an old or newer one.
 */
import { IsobudgetError } from '../core/errors.js';
import type { Database, Migration } from './spec.js';

/** Arbitrary but fixed: the advisory lock key that serializes migrators. */
const MIGRATION_LOCK = 7_402_611_213;

const LEDGER_TABLE = `CREATE TABLE IF NOT EXISTS isobudget_migrations (
  id TEXT PRIMARY KEY,
  description TEXT NOT NULL,
  applied_at TIMESTAMPTZ NOT NULL DEFAULT now()
)`;

export interface SchemaStatus {
  applied: string[];
  pending: Migration[];
  /** Applied ids this build does not know: the database was migrated by a newer isobudget. */
  unknown: string[];
}

export async function schemaStatus(db: Database, migrations: readonly Migration[]): Promise<SchemaStatus> {
  const exists = await db.query<{ present: boolean }>(`SELECT to_regclass('isobudget_migrations') IS NOT NULL AS present`);
  const applied = exists.rows[0]?.present ? (await db.query<{ id: string }>('SELECT id FROM isobudget_migrations ORDER BY id')).rows.map((r) => r.id) : [];
  const known = new Set(migrations.map((m) => m.id));
  const done = new Set(applied);
  return { applied, pending: migrations.filter((m) => !done.has(m.id)), unknown: applied.filter((id) => !known.has(id)) };
}

/** Applies what is pending; returns the ids it applied (none when another process was first). */
export async function applyMigrations(db: Database, migrations: readonly Migration[]): Promise<string[]> {
  assertOrdered(migrations);
  const client = await db.connect();
  try {
    await client.query('BEGIN');
    await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    await client.query(LEDGER_TABLE);
    const done = new Set((await client.query<{ id: string }>('SELECT id FROM isobudget_migrations')).rows.map((r) => r.id));
    const applied: string[] = [];
    for (const migration of migrations) {
      if (done.has(migration.id)) continue;
      await client.query(migration.sql);
      await client.query('INSERT INTO isobudget_migrations (id, description) VALUES ($1, $2)', [migration.id, migration.description]);
      applied.push(migration.id);
    }
    await client.query('COMMIT');
    return applied;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}

/** Refuses to work on a schema that is behind (pending migrations) or ahead of this build. */
export async function requireCurrentSchema(db: Database, migrations: readonly Migration[], where: string): Promise<void> {
  const status = await schemaStatus(db, migrations);
  if (status.unknown.length > 0) {
    throw new IsobudgetError('db_schema_newer', `${where} was migrated by a newer isobudget (unknown migrations: ${status.unknown.join(', ')})`, {
      hint: 'upgrade isobudget on this machine to the version the team uses',
    });
  }
  if (status.pending.length > 0) {
    throw new IsobudgetError('db_schema_outdated', `${where} needs ${status.pending.length} migration(s): ${status.pending.map((m) => m.id).join(', ')}`, {
      hint: 'run `isobudget db migrate --db URL` once (safe to run from several machines at the same time)',
    });
  }
}

function assertOrdered(migrations: readonly Migration[]): void {
  for (let i = 1; i < migrations.length; i += 1) {
    const previous = migrations[i - 1]?.id ?? '';
    const current = migrations[i]?.id ?? '';
    if (current <= previous) throw new Error(`migrations out of order: ${previous} before ${current}`);
  }
}
