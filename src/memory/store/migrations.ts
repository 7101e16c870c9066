/**
 * Schema migrations of the SQLite store, applied in order and recorded in
 * `schema_migrations`. Never edit a shipped migration: add the next one.
 */
export interface Migration {
  version: number;
  name: string;
  sql: string;
}

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'memory records, versions, gates, test-split uses, review queue, settings',
    sql: `
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
        body TEXT NOT NULL,
        changelog TEXT NOT NULL,
        diff TEXT,
        created_at TEXT NOT NULL,
        PRIMARY KEY (memory_id, version)
      );
      CREATE TABLE gates (
        gate_id TEXT PRIMARY KEY,
        status TEXT NOT NULL,
        candidate_id TEXT,
        body TEXT NOT NULL,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
      );
      CREATE TABLE gate_layers (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        gate_id TEXT NOT NULL REFERENCES gates (gate_id),
        layer INTEGER NOT NULL CHECK (layer BETWEEN 1 AND 5),
        name TEXT NOT NULL,
        status TEXT NOT NULL,
        body TEXT NOT NULL,
        recorded_at TEXT NOT NULL
      );
      CREATE INDEX gate_layers_gate ON gate_layers (gate_id);
      CREATE TABLE test_split_uses (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        dataset_sha256 TEXT NOT NULL,
        run_id TEXT NOT NULL UNIQUE,
        body TEXT NOT NULL,
        used_at TEXT NOT NULL
      );
      CREATE INDEX test_split_uses_hash ON test_split_uses (dataset_sha256);
      CREATE TABLE review_items (
        review_id TEXT PRIMARY KEY,
        kind TEXT NOT NULL,
        status TEXT NOT NULL,
        body TEXT NOT NULL,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
      );
      CREATE TABLE review_decisions (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        review_id TEXT NOT NULL REFERENCES review_items (review_id),
        decision TEXT NOT NULL,
        reviewer TEXT NOT NULL,
        note TEXT,
        decided_at TEXT NOT NULL
      );
      CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT NOT NULL);
    `,
  },
];
