/**
 * 0001: the team ledger (runs, units, calls, results), content-addressed run inputs, the
 * shared rate-limit state, and the governance store (memory, gates, test-split uses, review
 * queue) — the SQLite store's tables, in Postgres. Columns for what is queried, JSONB for the
 * rest: `record` holds the ledger record exactly as calls.jsonl / results.jsonl would.
 */
import type { Migration } from '../spec.js';

export const RUNS_MIGRATION: Migration = {
  id: '0001-runs',
  description: 'runs, units, calls, results, run inputs, rate limits, memory store, review queue, gate test-use counts',
  sql: `
CREATE TABLE run_inputs (
  hash TEXT PRIMARY KEY,
  kind TEXT NOT NULL,
  body JSONB NOT NULL,
  created_at TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE TABLE runs (
  run_id TEXT PRIMARY KEY,
  experiment TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('running', 'complete', 'interrupted')),
  split TEXT NOT NULL,
  config_hash TEXT NOT NULL,
  inputs JSONB NOT NULL,
  manifest JSONB NOT NULL,
  units_planned INTEGER NOT NULL,
  lease_seconds INTEGER NOT NULL,
  created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
  updated_at TIMESTAMPTZ NOT NULL DEFAULT now(),
  finished_at TIMESTAMPTZ
);
CREATE INDEX runs_created ON runs (created_at DESC);
CREATE TABLE units (
  run_id TEXT NOT NULL REFERENCES runs (run_id) ON DELETE CASCADE,
  unit_key TEXT NOT NULL,
  seq INTEGER NOT NULL,
  split TEXT NOT NULL,
  case_id TEXT NOT NULL,
  arm TEXT NOT NULL,
  epoch INTEGER NOT NULL,
  state TEXT NOT NULL DEFAULT 'queued' CHECK (state IN ('queued', 'committed')),
  attempts INTEGER NOT NULL DEFAULT 0,
  committed_at TIMESTAMPTZ,
  PRIMARY KEY (run_id, unit_key)
);
CREATE INDEX units_open ON units (run_id) WHERE state <> 'committed';
CREATE TABLE calls (
  id BIGSERIAL PRIMARY KEY,
  run_id TEXT NOT NULL,
  call_id TEXT NOT NULL,
  unit_key TEXT NOT NULL,
  attempt_id TEXT NOT NULL,
  state TEXT NOT NULL CHECK (state IN ('in_flight', 'committed', 'interrupted')),
  case_id TEXT NOT NULL,
  arm TEXT NOT NULL,
  epoch INTEGER NOT NULL,
  role TEXT NOT NULL,
  model TEXT NOT NULL,
  prompt_tokens BIGINT,
  completion_tokens BIGINT,
  total_tokens BIGINT,
  cost_usd DOUBLE PRECISION,
  latency_ms INTEGER NOT NULL,
  status INTEGER,
  usage_missing BOOLEAN NOT NULL,
  ts TIMESTAMPTZ NOT NULL,
  record JSONB NOT NULL,
  UNIQUE (run_id, call_id)
);
CREATE INDEX calls_run_state ON calls (run_id, state);
CREATE INDEX calls_attempt ON calls (attempt_id) WHERE state = 'in_flight';
CREATE INDEX calls_ts ON calls (ts);
-- One result per unit, ever: the split is part of the key because a regression case may
-- carry the same id as a case of the screened split (they are different units).
CREATE TABLE results (
  id BIGSERIAL PRIMARY KEY,
  run_id TEXT NOT NULL REFERENCES runs (run_id) ON DELETE CASCADE,
  case_id TEXT NOT NULL,
  arm TEXT NOT NULL,
  epoch INTEGER NOT NULL,
  split TEXT NOT NULL,
  seq INTEGER NOT NULL,
  attempt_id TEXT NOT NULL,
  variant TEXT NOT NULL,
  n INTEGER NOT NULL,
  passed BOOLEAN NOT NULL,
  total_tokens BIGINT,
  cost_usd DOUBLE PRECISION,
  latency_ms INTEGER NOT NULL,
  ts TIMESTAMPTZ NOT NULL,
  record JSONB NOT NULL,
  UNIQUE (run_id, case_id, arm, epoch, split)
);
CREATE TABLE rate_limits (
  run_id TEXT PRIMARY KEY REFERENCES runs (run_id) ON DELETE CASCADE,
  next_request_at TIMESTAMPTZ NOT NULL DEFAULT now(),
  tokens_available DOUBLE PRECISION NOT NULL DEFAULT 0,
  tokens_refilled_at TIMESTAMPTZ NOT NULL DEFAULT now(),
  paused_until TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE TABLE memory_records (
  memory_id TEXT PRIMARY KEY,
  head_version INTEGER NOT NULL CHECK (head_version >= 1),
  type TEXT NOT NULL,
  status TEXT NOT NULL,
  subject TEXT NOT NULL,
  candidate_id TEXT,
  updated_at TEXT NOT NULL
);
CREATE INDEX memory_records_candidate ON memory_records (candidate_id);
CREATE INDEX memory_records_subject ON memory_records (subject);
CREATE TABLE memory_versions (
  memory_id TEXT NOT NULL REFERENCES memory_records (memory_id),
  version INTEGER NOT NULL,
  body JSONB NOT NULL,
  changelog TEXT NOT NULL,
  diff TEXT,
  created_at TEXT NOT NULL,
  PRIMARY KEY (memory_id, version)
);
CREATE TABLE gates (
  gate_id TEXT PRIMARY KEY,
  status TEXT NOT NULL,
  candidate_id TEXT,
  body JSONB NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE TABLE gate_layers (
  id BIGSERIAL PRIMARY KEY,
  gate_id TEXT NOT NULL REFERENCES gates (gate_id),
  layer INTEGER NOT NULL CHECK (layer BETWEEN 1 AND 5),
  name TEXT NOT NULL,
  status TEXT NOT NULL,
  body JSONB NOT NULL,
  recorded_at TEXT NOT NULL
);
CREATE INDEX gate_layers_gate ON gate_layers (gate_id);
CREATE TABLE test_split_uses (
  id BIGSERIAL PRIMARY KEY,
  dataset_sha256 TEXT NOT NULL,
  run_id TEXT NOT NULL UNIQUE,
  body JSONB NOT NULL,
  used_at TEXT NOT NULL
);
CREATE INDEX test_split_uses_hash ON test_split_uses (dataset_sha256);
CREATE TABLE review_items (
  review_id TEXT PRIMARY KEY,
  kind TEXT NOT NULL,
  status TEXT NOT NULL,
  body JSONB NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE TABLE review_decisions (
  id BIGSERIAL PRIMARY KEY,
  review_id TEXT NOT NULL REFERENCES review_items (review_id),
  decision TEXT NOT NULL,
  reviewer TEXT NOT NULL,
  note TEXT,
  decided_at TEXT NOT NULL
);
CREATE TABLE memory_settings (key TEXT PRIMARY KEY, value TEXT NOT NULL);
`,
};
