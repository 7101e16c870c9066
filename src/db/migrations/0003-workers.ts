/**
 * 0003: the team's control plane. `workers` holds a row per worker process (its heartbeat);
 * a unit records which worker holds it, under which attempt, until when (its lease, renewed
 * by every heartbeat), which isobudget version ran it, its pg-boss job (one live job per
 * unit, written in the submission's transaction) and its last error.
 *
 * Unit states: queued (waiting for a worker), active (held, lease running), committed
 * (result in the ledger, final), failed (out of attempts: `runs requeue ID --failed`),
 * cancelled (`runs cancel`). A run may be `cancelled` too.
 */
import type { Migration } from '../spec.js';

export const WORKERS_MIGRATION: Migration = {
  id: '0003-workers',
  description: 'worker heartbeats; unit holders, leases, versions, jobs and last errors',
  sql: `
CREATE TABLE workers (
  id TEXT PRIMARY KEY,
  host TEXT NOT NULL,
  pid INTEGER NOT NULL,
  version TEXT NOT NULL,
  concurrency INTEGER NOT NULL,
  dead_after_seconds INTEGER NOT NULL CHECK (dead_after_seconds > 0),
  started_at TIMESTAMPTZ NOT NULL DEFAULT now(),
  last_beat_at TIMESTAMPTZ NOT NULL DEFAULT now(),
  state TEXT NOT NULL DEFAULT 'live' CHECK (state IN ('live', 'stopped', 'dead')),
  stopped_at TIMESTAMPTZ
);
CREATE INDEX workers_live ON workers (last_beat_at) WHERE state = 'live';
ALTER TABLE units DROP CONSTRAINT units_state_check;
ALTER TABLE units ADD CONSTRAINT units_state_check CHECK (state IN ('queued', 'active', 'committed', 'failed', 'cancelled'));
ALTER TABLE units
  ADD COLUMN job_id UUID,
  ADD COLUMN worker_id TEXT,
  ADD COLUMN attempt_id TEXT,
  ADD COLUMN version TEXT,
  ADD COLUMN started_at TIMESTAMPTZ,
  ADD COLUMN lease_until TIMESTAMPTZ,
  ADD COLUMN handbacks INTEGER NOT NULL DEFAULT 0,
  ADD COLUMN last_error TEXT;
CREATE INDEX units_active ON units (lease_until) WHERE state = 'active';
-- The outputs a call returned (native n returns several), as a column: the audit sums it in SQL.
ALTER TABLE calls ADD COLUMN paths INTEGER NOT NULL DEFAULT 1;
UPDATE calls SET paths = GREATEST(1, (record->>'paths')::int) WHERE (record->>'paths') IS NOT NULL AND (record->>'paths')::int > 1;
ALTER TABLE runs DROP CONSTRAINT runs_status_check;
ALTER TABLE runs ADD CONSTRAINT runs_status_check CHECK (status IN ('running', 'complete', 'interrupted', 'cancelled'));
CREATE INDEX units_job ON units (job_id);
`,
};
