/**
 * The `workers` table: a row per worker process, its heartbeat, and what `workers list`
 * shows. A worker beats every `deadAfter / 5` seconds; a worker silent past its own
 * `dead_after_seconds` is dead for the supervisor (unit-leases.ts `sweepLapsed`).
 */
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { Database } from '../db/spec.js';

export interface WorkerIdentity {
  id: string;
  host: string;
  pid: number;
  version: string;
}

export function newWorkerIdentity(version: string): WorkerIdentity {
  const host = hostname();
  return { id: `${host}-${process.pid}-${randomBytes(3).toString('hex')}`, host, pid: process.pid, version };
}

export async function registerWorker(db: Database, identity: WorkerIdentity, concurrency: number, deadAfterSeconds: number): Promise<void> {
  await db.query(
    `INSERT INTO workers (id, host, pid, version, concurrency, dead_after_seconds) VALUES ($1, $2, $3, $4, $5, $6)
     ON CONFLICT (id) DO UPDATE SET state = 'live', last_beat_at = now()`,
    [identity.id, identity.host, identity.pid, identity.version, concurrency, deadAfterSeconds],
  );
}

/** One heartbeat; a worker the supervisor had declared dead (it was only slow) is live again. */
export async function beat(db: Database, workerId: string): Promise<void> {
  await db.query(`UPDATE workers SET last_beat_at = now(), state = 'live' WHERE id = $1`, [workerId]);
}

export async function stopWorkerRow(db: Database, workerId: string): Promise<void> {
  await db.query(`UPDATE workers SET state = 'stopped', stopped_at = now() WHERE id = $1 AND state <> 'stopped'`, [workerId]);
}

export interface WorkerListing {
  id: string;
  host: string;
  pid: number;
  version: string;
  state: 'live' | 'stopped' | 'dead';
  /** live and beating within its --dead-after. */
  alive: boolean;
  concurrency: number;
  /** Units it holds now. */
  units: number;
  started_at: string;
  last_beat_at: string;
  /** Seconds since its last heartbeat. */
  silent_seconds: number;
}

export async function listWorkers(db: Database, limit = 200): Promise<WorkerListing[]> {
  const { rows } = await db.query<WorkerListing>(
    `SELECT w.id, w.host, w.pid, w.version, w.state, w.concurrency,
            (w.state = 'live' AND w.last_beat_at >= now() - make_interval(secs => w.dead_after_seconds)) AS alive,
            (SELECT count(*)::int FROM units u WHERE u.worker_id = w.id AND u.state = 'active') AS units,
            to_char(w.started_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS started_at,
            to_char(w.last_beat_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS last_beat_at,
            round(EXTRACT(EPOCH FROM now() - w.last_beat_at))::int AS silent_seconds
       FROM workers w ORDER BY (w.state = 'live') DESC, w.last_beat_at DESC LIMIT $1`,
    [limit],
  );
  return rows;
}
