/**
 * 0005: `call_totals`, the calls summed per (run, unit, UTC hour, role, state) — what
 * `analyze --db` and `audit --db` read instead of the calls themselves, so both stay fast at
 * millions of calls. Statement triggers on `calls` keep it: every INSERT, UPDATE (the upsert's
 * too) and DELETE adds its net change in the same transaction, whichever code path wrote the
 * rows, so the totals can never disagree with the calls they sum (`callTotalsMismatch` checks).
 * A row's first_ts/last_ts bound the calls it holds (they only widen): the audit reads the
 * calls themselves only for a window edge that cuts an hour's row.
 *
 * The triggers write one row per unit, not per hour of the run: a unit is written by the
 * attempt holding it, so two workers never wait on each other's row (a shared per-hour row
 * would serialize every commit of the hour, and lock in different orders across statements).
 * When the run finishes, its unit rows are folded into rows of unit '' (per hour, role and
 * state: `compactCallTotals`); readers sum every row, so a late write landing on a unit row
 * again is still counted. Existing calls are summed here straight into rows of unit '' (the
 * trigger is created first, in the same transaction, which blocks writers until it commits).
 */
import type { Migration } from '../spec.js';

/** ledger/call-intents.ts OUTCOME_UNKNOWN, spelled out: a shipped migration never changes with the code. */
const OUTCOME_UNKNOWN = 'outcome_unknown';

/** Σ over `source` (rows with a `sign`: +1 added, −1 removed) per key, net of zero changes. */
const DELTAS = (source: string, unit = 'unit_key'): string => `
  SELECT run_id, ${unit} AS unit_key, date_trunc('hour', ts, 'UTC') AS hour, role, state,
         sum(sign) AS calls,
         COALESCE(sum(sign) FILTER (WHERE NOT usage_missing AND completion_tokens IS NOT NULL), 0) AS usage_known,
         COALESCE(sum(sign * completion_tokens) FILTER (WHERE NOT usage_missing), 0) AS completion_tokens,
         COALESCE(sum(sign * paths) FILTER (WHERE NOT usage_missing AND completion_tokens IS NOT NULL), 0) AS outputs,
         COALESCE(sum(sign * total_tokens), 0) AS total_tokens,
         COALESCE(sum(sign) FILTER (WHERE record->>'note' = '${OUTCOME_UNKNOWN}'), 0) AS outcome_unknown,
         COALESCE(sum(sign * (record->>'reserved_tokens')::bigint) FILTER (WHERE record->>'note' = '${OUTCOME_UNKNOWN}'), 0) AS outcome_unknown_reserved,
         min(ts) AS first_ts, max(ts) AS last_ts
    FROM (${source}) AS changed
   GROUP BY 1, 2, 3, 4, 5`;

const SUMMED = ['calls', 'usage_known', 'completion_tokens', 'outputs', 'total_tokens', 'outcome_unknown', 'outcome_unknown_reserved'];

const UPSERT = (source: string, unit?: string): string => `
  INSERT INTO call_totals AS t (run_id, unit_key, hour, role, state, ${SUMMED.join(', ')}, first_ts, last_ts)
  SELECT * FROM (${DELTAS(source, unit)}) AS d
   WHERE ${SUMMED.map((c) => `d.${c} <> 0`).join(' OR ')}
   ORDER BY 1, 2, 3, 4, 5
  ON CONFLICT (run_id, unit_key, hour, role, state) DO UPDATE SET
    ${SUMMED.map((c) => `${c} = t.${c} + EXCLUDED.${c}`).join(', ')},
    first_ts = LEAST(t.first_ts, EXCLUDED.first_ts), last_ts = GREATEST(t.last_ts, EXCLUDED.last_ts)`;

export const CALL_TOTALS_MIGRATION: Migration = {
  id: '0005-call-totals',
  description: 'call_totals: calls summed per run, unit, UTC hour, role and state, kept by triggers on calls',
  sql: `
CREATE TABLE call_totals (
  run_id TEXT NOT NULL,
  unit_key TEXT NOT NULL,
  hour TIMESTAMPTZ NOT NULL,
  role TEXT NOT NULL,
  state TEXT NOT NULL,
  calls BIGINT NOT NULL,
  usage_known BIGINT NOT NULL,
  completion_tokens BIGINT NOT NULL,
  outputs BIGINT NOT NULL,
  total_tokens BIGINT NOT NULL,
  outcome_unknown BIGINT NOT NULL,
  outcome_unknown_reserved BIGINT NOT NULL,
  first_ts TIMESTAMPTZ NOT NULL,
  last_ts TIMESTAMPTZ NOT NULL,
  PRIMARY KEY (run_id, unit_key, hour, role, state)
);
CREATE INDEX call_totals_hour ON call_totals (hour) INCLUDE (role, state, calls);
CREATE FUNCTION call_totals_track() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  IF TG_OP = 'INSERT' THEN
    ${UPSERT('SELECT 1 AS sign, * FROM new_calls')};
  ELSIF TG_OP = 'UPDATE' THEN
    ${UPSERT('SELECT -1 AS sign, * FROM old_calls UNION ALL SELECT 1 AS sign, * FROM new_calls')};
  ELSE
    ${UPSERT('SELECT -1 AS sign, * FROM old_calls')};
  END IF;
  RETURN NULL;
END
$fn$;
CREATE TRIGGER calls_totals_insert AFTER INSERT ON calls REFERENCING NEW TABLE AS new_calls FOR EACH STATEMENT EXECUTE FUNCTION call_totals_track();
CREATE TRIGGER calls_totals_update AFTER UPDATE ON calls REFERENCING OLD TABLE AS old_calls NEW TABLE AS new_calls FOR EACH STATEMENT EXECUTE FUNCTION call_totals_track();
CREATE TRIGGER calls_totals_delete AFTER DELETE ON calls REFERENCING OLD TABLE AS old_calls FOR EACH STATEMENT EXECUTE FUNCTION call_totals_track();
${UPSERT('SELECT 1 AS sign, * FROM calls', "''")};
`,
};
