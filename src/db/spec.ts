/**
 * Team mode's storage boundary (DESIGN §10): PostgreSQL, switched on by `--db URL` or
 * `ISOBUDGET_DATABASE_URL`. The embedded default (JSONL + SQLite) never loads this folder.
 */
import type pg from 'pg';

/** A versioned schema change. Never edit a shipped migration: add the next one. */
export interface Migration {
  /** Sortable, unique and stable: `0001-runs`, `0002-gateway`, … (applied in list order). */
  id: string;
  /** One line, shown by `isobudget db status`. */
  description: string;
  /** Run inside one transaction; must not contain its own BEGIN/COMMIT. */
  sql: string;
}

/** The pool every Postgres store shares within one process. */
export type Database = pg.Pool;
