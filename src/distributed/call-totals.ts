/**
 * Reads of `call_totals` (migration 0005: the calls summed per run, unit, UTC hour, role and
 * state, kept by triggers on `calls` in the writer's transaction): a run's call counts and
 * the audit's calls per hour without reading the calls — and the check that the totals still
 * add up to the calls they sum.
 */
import { inTransaction } from '../db/batch-insert.js';
import type { Database } from '../db/spec.js';
import type { CallCounts } from '../ledger/manifest.js';

export async function callCounts(db: Database, runId: string): Promise<CallCounts> {
  const { rows } = await db.query<{ committed: string; spent_unused: string; outcome_unknown: string; spent_unused_tokens: string; outcome_unknown_max_tokens: string }>(
    `SELECT COALESCE(sum(calls) FILTER (WHERE state = 'committed'), 0) AS committed,
            COALESCE(sum(calls) FILTER (WHERE state <> 'committed'), 0) AS spent_unused,
            COALESCE(sum(outcome_unknown) FILTER (WHERE state <> 'committed'), 0) AS outcome_unknown,
            COALESCE(sum(total_tokens) FILTER (WHERE state <> 'committed'), 0) AS spent_unused_tokens,
            COALESCE(sum(outcome_unknown_reserved) FILTER (WHERE state <> 'committed'), 0) AS outcome_unknown_max_tokens
       FROM call_totals WHERE run_id = $1`,
    [runId],
  );
  const r = rows[0];
  if (!r) throw new Error('an aggregate without a row');
  return { committed: Number(r.committed), spent_unused: Number(r.spent_unused), outcome_unknown: Number(r.outcome_unknown), spent_unused_tokens: Number(r.spent_unused_tokens), outcome_unknown_max_tokens: Number(r.outcome_unknown_max_tokens) };
}

export interface HourOfCalls {
  /** Start of the UTC hour, ms. */
  time: number;
  n: number;
  /** Calls with usage and a completion count. */
  known: number;
  /** Σ completion tokens of the calls with usage. */
  completion: number;
  /** Σ outputs of the `known` calls. */
  outputs: number;
}

/**
 * Committed generate calls with ts in [since, until] (ISO), summed per UTC hour; and how many
 * lie outside. Hours strictly inside the window come from the totals; an hour at an edge too,
 * unless one of its rows may hold a call outside the window (its first_ts/last_ts say) — then
 * that hour is summed from `calls` (an index range of one hour; at most the window's two ends).
 */
export async function generateCallsPerHour(db: Database, since: string, until: string): Promise<{ hours: HourOfCalls[]; outside: number }> {
  const [totals, all] = await Promise.all([
    db.query<HourOfCalls & { cut: boolean }>(
      `SELECT (EXTRACT(EPOCH FROM hour) * 1000)::float8 AS time, sum(calls)::int AS n, sum(usage_known)::int AS known,
              sum(completion_tokens)::float8 AS completion, sum(outputs)::float8 AS outputs,
              bool_or(calls <> 0 AND (first_ts < $1::timestamptz OR last_ts > $2::timestamptz)) AS cut
         FROM call_totals WHERE state = 'committed' AND role = 'generate'
          AND hour BETWEEN date_trunc('hour', $1::timestamptz, 'UTC') AND date_trunc('hour', $2::timestamptz, 'UTC')
        GROUP BY hour ORDER BY hour`,
      [since, until],
    ),
    db.query<{ n: number }>(`SELECT COALESCE(sum(calls), 0)::float8 AS n FROM call_totals WHERE state = 'committed' AND role = 'generate'`),
  ]);
  const cut = totals.rows.filter((h) => h.cut).map((h) => new Date(h.time).toISOString());
  const edges = await Promise.all(cut.map(async (hour) => (await db.query<HourOfCalls>(
    `SELECT (EXTRACT(EPOCH FROM $3::timestamptz) * 1000)::float8 AS time, count(*)::int AS n,
            (count(*) FILTER (WHERE NOT usage_missing AND completion_tokens IS NOT NULL))::int AS known,
            COALESCE(sum(completion_tokens) FILTER (WHERE NOT usage_missing), 0)::float8 AS completion,
            COALESCE(sum(paths) FILTER (WHERE NOT usage_missing AND completion_tokens IS NOT NULL), 0)::float8 AS outputs
       FROM calls WHERE state = 'committed' AND role = 'generate' AND ts BETWEEN $1::timestamptz AND $2::timestamptz
        AND ts >= $3::timestamptz AND ts < $3::timestamptz + interval '1 hour'`,
    [since, until, hour],
  )).rows[0]));
  const edge = new Map(edges.flatMap((h) => (h === undefined ? [] : [[h.time, h] as const])));
  const hours = totals.rows.flatMap(({ cut: isCut, ...h }) => {
    const counted = isCut ? edge.get(h.time) : h;
    return counted === undefined || counted.n === 0 ? [] : [counted];
  });
  const inside = hours.reduce((sum, h) => sum + h.n, 0);
  return { hours, outside: Number(all.rows[0]?.n ?? 0) - inside };
}

const SUMMED = ['calls', 'usage_known', 'completion_tokens', 'outputs', 'total_tokens', 'outcome_unknown', 'outcome_unknown_reserved'];

/** One folder at a time (the fold upserts shared hour rows; two would lock them in either order). */
const FOLD_LOCK = 7_402_611_214;

/** Unit rows matching `where` (over `t`, with `using` joined) moved into their run's hour rows (unit ''). */
const FOLD = (using: string, where: string): string => `
  WITH moved AS (DELETE FROM call_totals t ${using} WHERE t.unit_key <> '' AND ${where} RETURNING t.*)
  INSERT INTO call_totals AS t (run_id, unit_key, hour, role, state, ${SUMMED.join(', ')}, first_ts, last_ts)
  SELECT run_id, '', hour, role, state, ${SUMMED.map((c) => `sum(${c})`).join(', ')}, min(first_ts), max(last_ts)
    FROM moved GROUP BY run_id, hour, role, state ORDER BY run_id, hour, role, state
  ON CONFLICT (run_id, unit_key, hour, role, state) DO UPDATE SET
    ${SUMMED.map((c) => `${c} = t.${c} + EXCLUDED.${c}`).join(', ')},
    first_ts = LEAST(t.first_ts, EXCLUDED.first_ts), last_ts = GREATEST(t.last_ts, EXCLUDED.last_ts)`;

/**
 * A finished run's unit rows folded into one row per (hour, role, state), unit '' — what
 * `analyze --db` and `audit --db` then sum is bounded by hours, not by units. A writer still
 * on a unit row (a late record) holds only that row, which the fold waits for; a write after
 * lands on a unit row again, which every reader sums too.
 */
export async function compactCallTotals(db: Database, runId: string): Promise<void> {
  await inTransaction(db, async (client) => {
    await client.query('SELECT pg_advisory_xact_lock($1)', [FOLD_LOCK]);
    await client.query(FOLD('', 't.run_id = $1'), [runId]);
  });
}

/**
 * The supervisor's fold (every heartbeat): rows of units already committed, in any run, into
 * their hour rows — so a running run's unit rows are its units in flight, not all it ran.
 * Skipped when another process is folding. Returns the hour rows written.
 */
export async function foldCommittedUnits(db: Database): Promise<number> {
  return inTransaction(db, async (client) => {
    const locked = await client.query<{ ok: boolean }>('SELECT pg_try_advisory_xact_lock($1) AS ok', [FOLD_LOCK]);
    if (locked.rows[0]?.ok !== true) return 0;
    const folded = await client.query(FOLD('USING units u', "u.run_id = t.run_id AND u.unit_key = t.unit_key AND u.state = 'committed'"));
    return folded.rowCount ?? 0;
  });
}

/**
 * The first way `call_totals` disagrees with the calls it sums, per (run, hour, role, state)
 * — for one run, or all — or undefined. Reads every call: a check (tests, tools), never on a
 * read path.
 */
export async function callTotalsMismatch(db: Database, runId?: string): Promise<string | undefined> {
  const where = runId === undefined ? '' : 'WHERE run_id = $1';
  const { rows } = await db.query<{ run_id: string; hour: string; role: string; state: string; totals: string | null; calls: string | null }>(
    `WITH summed AS (
       SELECT run_id, date_trunc('hour', ts, 'UTC') AS hour, role, state,
              concat_ws(',', count(*), count(*) FILTER (WHERE NOT usage_missing AND completion_tokens IS NOT NULL),
                        COALESCE(sum(completion_tokens) FILTER (WHERE NOT usage_missing), 0),
                        COALESCE(sum(paths) FILTER (WHERE NOT usage_missing AND completion_tokens IS NOT NULL), 0),
                        COALESCE(sum(total_tokens), 0), count(*) FILTER (WHERE record->>'note' = 'outcome_unknown'),
                        COALESCE(sum((record->>'reserved_tokens')::bigint) FILTER (WHERE record->>'note' = 'outcome_unknown'), 0)) AS sums,
              min(ts) AS first_ts, max(ts) AS last_ts
         FROM calls ${where} GROUP BY 1, 2, 3, 4),
     kept AS (
       SELECT run_id, hour, role, state, concat_ws(',', ${SUMMED.map((c) => `sum(${c})`).join(', ')}) AS sums, min(first_ts) AS first_ts, max(last_ts) AS last_ts
         FROM call_totals ${where} GROUP BY 1, 2, 3, 4)
     SELECT run_id, hour::text, role, state, k.sums AS totals, s.sums AS calls
       FROM kept k FULL JOIN summed s USING (run_id, hour, role, state)
      WHERE COALESCE(k.sums, '0,0,0,0,0,0,0') <> COALESCE(s.sums, '0,0,0,0,0,0,0') OR s.first_ts < k.first_ts OR s.last_ts > k.last_ts
      ORDER BY 1, 2, 3, 4 LIMIT 1`,
    runId === undefined ? [] : [runId],
  );
  const r = rows[0];
  if (r === undefined) return undefined;
  return `call_totals of run ${r.run_id} (${r.role}, ${r.state}, hour ${r.hour}) hold ${r.totals ?? 'nothing'}, its calls sum to ${r.calls ?? 'nothing'} (calls, with usage, completion, outputs, total tokens, outcome unknown, reserved)`;
}
