/**
 * 0006: results by time. `audit --db` sums the results of its window per UTC hour in the
 * database (team-reads.ts); the index lets a window that holds a small part of the results read
 * only that part, as `calls_ts` does for the calls.
 */
import type { Migration } from '../spec.js';

export const RESULTS_TS_MIGRATION: Migration = {
  id: '0006-results-ts',
  description: 'an index of results by time, for the audit window',
  sql: `
CREATE INDEX IF NOT EXISTS results_ts ON results (ts);
`,
};
