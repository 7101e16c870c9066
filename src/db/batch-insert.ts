/**
 * Multi-row INSERT: one statement per chunk of rows instead of one per row — the ledger's
 * insert rate comes from here. Chunks stay under Postgres's 65,535 bind parameters.
 */
import type pg from 'pg';

type Queryable = Pick<pg.Pool | pg.PoolClient, 'query'>;

const MAX_PARAMETERS = 65_000;

/**
 * Inserts `rows` (each a value per column, in column order) into `table`; `suffix` follows the
 * VALUES list (e.g. `ON CONFLICT DO NOTHING`). Returns the number of rows inserted.
 */
export async function insertRows(db: Queryable, table: string, columns: readonly string[], rows: readonly unknown[][], suffix = ''): Promise<number> {
  if (rows.length === 0) return 0;
  const perChunk = Math.max(1, Math.floor(MAX_PARAMETERS / columns.length));
  let inserted = 0;
  for (let start = 0; start < rows.length; start += perChunk) {
    const chunk = rows.slice(start, start + perChunk);
    const values: unknown[] = [];
    const tuples = chunk.map((row) => {
      if (row.length !== columns.length) throw new Error(`insertRows(${table}): a row has ${row.length} values for ${columns.length} columns`);
      const slots = row.map((value) => {
        values.push(value);
        return `$${values.length}`;
      });
      return `(${slots.join(', ')})`;
    });
    const result = await db.query(`INSERT INTO ${table} (${columns.join(', ')}) VALUES ${tuples.join(', ')} ${suffix}`, values);
    inserted += result.rowCount ?? 0;
  }
  return inserted;
}

/** Runs `work` in one transaction on one connection of the pool. */
export async function inTransaction<T>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  let broken: Error | undefined;
  try {
    await client.query('BEGIN');
    const value = await work(client);
    await client.query('COMMIT');
    return value;
  } catch (error) {
    await client.query('ROLLBACK').catch((rollback: unknown) => {
      // No rollback on a dead connection: the client is dropped, not returned to the pool.
      broken = rollback instanceof Error ? rollback : new Error(String(rollback));
    });
    throw error;
  } finally {
    client.release(broken);
  }
}
