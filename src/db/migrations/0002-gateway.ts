/**
 * Gateway replicas on one database (`isobudget gateway --db URL`): virtual keys with their
 * budget, spend and reservations; the replicas serving them (heartbeats, so a dead one's
 * reservations are booked as spent); open reservations; and every call's record.
 *
 * Invariants the gateway keeps (src/gateway/store/pg/*):
 * - `gateway_keys.reserved` = Σ `gateway_reservations.tokens` of the key (both change in one statement);
 * - `spent + reserved ≤ budget` for every reservation granted (one conditional UPDATE);
 * - `gateway_keys.spent` = Σ `gateway_calls.booked_tokens` of the key (settlement and call row in one statement).
 */
import type { Migration } from '../spec.js';

export const GATEWAY_MIGRATION: Migration = {
  id: '0002-gateway',
  description: 'gateway keys, replicas, reservations and calls (gateway --db)',
  sql: `
CREATE TABLE gateway_keys (
  id TEXT PRIMARY KEY,
  hash TEXT NOT NULL UNIQUE,
  budget BIGINT CHECK (budget IS NULL OR budget > 0),
  tags JSONB NOT NULL DEFAULT '{}'::jsonb,
  created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
  spent BIGINT NOT NULL DEFAULT 0,
  reserved BIGINT NOT NULL DEFAULT 0 CHECK (reserved >= 0),
  revoked BOOLEAN NOT NULL DEFAULT false,
  closed TEXT,
  over_reservation BIGINT NOT NULL DEFAULT 0,
  -- What the last reservation added to \`reserved\`: how one UPDATE returns the amount it granted.
  last_grant BIGINT
);
CREATE TABLE gateway_replicas (
  id TEXT PRIMARY KEY,
  host TEXT NOT NULL,
  pid INTEGER NOT NULL,
  upstream TEXT NOT NULL,
  lease_tokens BIGINT,
  started_at TIMESTAMPTZ NOT NULL DEFAULT now(),
  heartbeat_at TIMESTAMPTZ NOT NULL DEFAULT now(),
  state TEXT NOT NULL DEFAULT 'live' CHECK (state IN ('live', 'stopped', 'reclaimed')),
  reclaimed_by TEXT
);
CREATE INDEX gateway_replicas_live ON gateway_replicas (heartbeat_at) WHERE state = 'live';
-- No foreign keys: a check per reservation would lock the key and replica rows again (the
-- statements that write here keep key_id and replica_id valid).
CREATE TABLE gateway_reservations (
  ticket TEXT PRIMARY KEY,
  key_id TEXT NOT NULL,
  replica_id TEXT NOT NULL,
  kind TEXT NOT NULL CHECK (kind IN ('call', 'lease')),
  tokens BIGINT NOT NULL CHECK (tokens >= 0),
  model TEXT,
  endpoint TEXT,
  protocol TEXT,
  stream BOOLEAN,
  session_id TEXT,
  created_at TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE INDEX gateway_reservations_replica ON gateway_reservations (replica_id);
CREATE TABLE gateway_calls (
  call_id TEXT PRIMARY KEY,
  key_id TEXT NOT NULL,
  replica_id TEXT,
  ticket TEXT,
  ts TIMESTAMPTZ NOT NULL,
  model TEXT,
  endpoint TEXT,
  status INTEGER,
  session_id TEXT,
  reserved_tokens BIGINT,
  booked_tokens BIGINT NOT NULL DEFAULT 0,
  total_tokens BIGINT,
  over_reservation BIGINT,
  outcome TEXT,
  record JSONB NOT NULL
);
CREATE INDEX gateway_calls_key_ts ON gateway_calls (key_id, ts);
`,
};
