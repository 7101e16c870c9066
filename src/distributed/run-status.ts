/**
 * `runs status ID --db`: what an operator needs to see of a distributed run — its units by
 * state, who holds what, the oldest unit running and every lease, the units out of attempts
 * and the last errors, the tokens billed so far, and an ETA from the commit rate so far.
 * A handful of aggregates: nothing proportional to the run leaves the server but the leases
 * and failed units (each list capped).
 */
import type { Database } from '../db/spec.js';
import { requireRun } from './run-store.js';

export interface RunStatus {
  run_id: string;
  status: string;
  units_planned: number;
  /** Units by state: queued, active, committed, failed, cancelled. */
  units: Record<string, number>;
  workers: Array<{ worker_id: string; alive: boolean; active: number; committed: number }>;
  oldest_active: { unit_key: string; worker_id: string | null; running_seconds: number } | null;
  leases: Array<{ unit_key: string; worker_id: string | null; version: string | null; expires_in_seconds: number }>;
  failed: Array<{ unit_key: string; last_error: string | null }>;
  last_errors: Array<{ unit_key: string; state: string; last_error: string }>;
  /** Tokens billed so far: every call with its usage, counted or not (committed and interrupted). */
  tokens_so_far: number;
  /** Committed units per minute since the first commit. */
  units_per_minute: number | null;
  /** Open units ÷ that rate (s); null before the second commit or once nothing is open. */
  eta_seconds: number | null;
}

const LIST_LIMIT = 50;

export async function runStatus(db: Database, runId: string): Promise<RunStatus> {
  const run = await requireRun(db, runId);
  const [states, workers, leases, failed, errors, tokens, rate] = await Promise.all([
    db.query<{ state: string; n: number }>('SELECT state, count(*)::int AS n FROM units WHERE run_id = $1 GROUP BY state', [runId]),
    db.query<{ worker_id: string; alive: boolean; active: number; committed: number }>(
      `SELECT u.worker_id, COALESCE(w.state = 'live' AND w.last_beat_at >= now() - make_interval(secs => w.dead_after_seconds), false) AS alive,
              (count(*) FILTER (WHERE u.state = 'active'))::int AS active, (count(*) FILTER (WHERE u.state = 'committed'))::int AS committed
         FROM units u LEFT JOIN workers w ON w.id = u.worker_id WHERE u.run_id = $1 AND u.worker_id IS NOT NULL GROUP BY u.worker_id, w.state, w.last_beat_at, w.dead_after_seconds ORDER BY u.worker_id`,
      [runId],
    ),
    db.query<{ unit_key: string; worker_id: string | null; version: string | null; expires_in_seconds: number; running_seconds: number }>(
      `SELECT unit_key, worker_id, version, round(EXTRACT(EPOCH FROM lease_until - now()))::int AS expires_in_seconds, round(EXTRACT(EPOCH FROM now() - started_at))::int AS running_seconds
         FROM units WHERE run_id = $1 AND state = 'active' ORDER BY started_at LIMIT $2`,
      [runId, LIST_LIMIT],
    ),
    db.query<{ unit_key: string; last_error: string | null }>(`SELECT unit_key, last_error FROM units WHERE run_id = $1 AND state = 'failed' ORDER BY seq LIMIT $2`, [runId, LIST_LIMIT]),
    db.query<{ unit_key: string; state: string; last_error: string }>(`SELECT unit_key, state, last_error FROM units WHERE run_id = $1 AND last_error IS NOT NULL AND state <> 'committed' ORDER BY seq LIMIT 10`, [runId]),
    // From call_totals (kept with the calls, migration 0005): no scan of the run's calls.
    db.query<{ n: string }>('SELECT COALESCE(sum(total_tokens), 0)::text AS n FROM call_totals WHERE run_id = $1', [runId]),
    db.query<{ done: number; minutes: number | null }>(
      `SELECT count(*)::int AS done, EXTRACT(EPOCH FROM max(committed_at) - min(committed_at)) / 60 AS minutes FROM units WHERE run_id = $1 AND state = 'committed'`,
      [runId],
    ),
  ]);
  const units: Record<string, number> = { queued: 0, active: 0, committed: 0, failed: 0, cancelled: 0 };
  for (const row of states.rows) units[row.state] = row.n;
  const open = (units['queued'] ?? 0) + (units['active'] ?? 0);
  const { done, minutes } = rate.rows[0] ?? { done: 0, minutes: null };
  const perMinute = done >= 2 && minutes !== null && Number(minutes) > 0 ? (done - 1) / Number(minutes) : null;
  const oldest = leases.rows[0];
  return {
    run_id: runId,
    status: run.status,
    units_planned: run.units_planned,
    units,
    workers: workers.rows,
    oldest_active: oldest ? { unit_key: oldest.unit_key, worker_id: oldest.worker_id, running_seconds: oldest.running_seconds } : null,
    leases: leases.rows.map(({ running_seconds: _running, ...lease }) => lease),
    failed: failed.rows,
    last_errors: errors.rows,
    tokens_so_far: Number(tokens.rows[0]?.n ?? 0),
    units_per_minute: perMinute === null ? null : Math.round(perMinute * 10) / 10,
    eta_seconds: perMinute === null || open === 0 ? null : Math.round((open / perMinute) * 60),
  };
}

/** The human form: a few lines, the lists capped. */
export function renderRunStatus(status: RunStatus): string {
  const u = status.units;
  const lines = [
    `run ${status.run_id}: ${status.status}; ${u['committed']}/${status.units_planned} committed, ${u['active']} active, ${u['queued']} queued, ${u['failed']} failed, ${u['cancelled']} cancelled`,
    `tokens so far: ${status.tokens_so_far}; rate: ${status.units_per_minute ?? '-'} units/min; ETA: ${status.eta_seconds === null ? '-' : `${status.eta_seconds} s`}`,
  ];
  if (status.oldest_active) lines.push(`oldest active: ${status.oldest_active.unit_key} on ${status.oldest_active.worker_id ?? '?'}, running ${status.oldest_active.running_seconds} s`);
  for (const w of status.workers) lines.push(`worker ${w.worker_id} (${w.alive ? 'alive' : 'dead or stopped'}): ${w.active} active, ${w.committed} committed`);
  for (const l of status.leases) lines.push(`lease ${l.unit_key}: ${l.worker_id ?? '?'} (isobudget ${l.version ?? '?'}), expires in ${l.expires_in_seconds} s`);
  for (const f of status.failed) lines.push(`failed ${f.unit_key}: ${f.last_error ?? '(no error recorded)'}`);
  for (const e of status.last_errors) if (e.state !== 'failed') lines.push(`last error ${e.unit_key} (${e.state}): ${e.last_error}`);
  if (u['failed'] ?? 0) lines.push(`give failed units new attempts: isobudget runs requeue ${status.run_id} --failed --db URL`);
  return `${lines.join('\n')}\n`;
}
