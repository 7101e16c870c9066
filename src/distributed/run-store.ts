/**
 * The runs side of the team database: content-addressed inputs, the run row (its manifest as
 * JSONB), its units, and what a worker or a reader loads back.
 */
import { sha256, stableStringify } from '../core/hash.js';
import type { EvalCase } from '../core/case.js';
import { IsobudgetError } from '../core/errors.js';
import type { ExperimentConfig } from '../config/types.js';
import type { Database } from '../db/spec.js';
import { insertRows } from '../db/batch-insert.js';
import type { Manifest } from '../ledger/manifest.js';
import type { ResultRecord } from '../ledger/records.js';
import type { Unit } from '../runner/plan.js';
import type { CodeFile } from './code-files.js';

/** A pool or one client of it (inside a transaction). */
type Queryable = Pick<Database, 'query'>;

/** What the run row's `inputs` holds: hashes into run_inputs, and where the submitter stood. */
export interface StoredInputs {
  /** The submitter's project root: absolute paths in the config are rebased from it. */
  root: string;
  config: string;
  /** Dataset rows by split name (`val`, `regression`, …): hashes into run_inputs. */
  datasets: Record<string, string>;
  code_files: CodeFile[];
}

export interface RunRow {
  run_id: string;
  experiment: string;
  status: 'running' | 'complete' | 'interrupted' | 'cancelled';
  split: string;
  config_hash: string;
  inputs: StoredInputs;
  manifest: Manifest;
  units_planned: number;
  lease_seconds: number;
  /** Deaths of workers holding one unit that make it `failed` (a poison unit). */
  max_worker_deaths: number;
  created_at: Date;
  updated_at: Date;
  finished_at: Date | null;
}

/** A unit whose workers died this many times while running it is failed, not re-queued (migration 0004's default too). */
export const DEFAULT_MAX_WORKER_DEATHS = 3;

/** Stores a blob under the sha256 of its canonical JSON; the same content is stored once. */
export async function putInput(db: Queryable, kind: string, body: unknown): Promise<string> {
  const text = stableStringify(body);
  const hash = sha256(text);
  await db.query('INSERT INTO run_inputs (hash, kind, body) VALUES ($1, $2, $3) ON CONFLICT (hash) DO NOTHING', [hash, kind, text]);
  return hash;
}

export async function getInput<T>(db: Database, hash: string): Promise<T> {
  const row = (await db.query<{ body: T }>('SELECT body FROM run_inputs WHERE hash = $1', [hash])).rows[0];
  if (!row) throw new IsobudgetError('db_missing_input', `run input ${hash.slice(0, 12)} is not in the database`, { hint: 're-submit the run' });
  return row.body;
}

/** False when the id is taken (another submitter's row, committed first). */
export async function insertRun(db: Queryable, manifest: Manifest, inputs: StoredInputs, leaseSeconds: number, maxWorkerDeaths = DEFAULT_MAX_WORKER_DEATHS): Promise<boolean> {
  const { rowCount } = await db.query(
    `INSERT INTO runs (run_id, experiment, status, split, config_hash, inputs, manifest, units_planned, lease_seconds, max_worker_deaths)
     VALUES ($1, $2, 'running', $3, $4, $5, $6, $7, $8, $9) ON CONFLICT (run_id) DO NOTHING`,
    [manifest.run_id, manifest.experiment, manifest.split, manifest.config_hash, JSON.stringify(inputs), JSON.stringify(manifest), manifest.units_planned, leaseSeconds, maxWorkerDeaths],
  );
  return rowCount === 1;
}

export async function insertUnits(db: Queryable, runId: string, units: readonly Unit[]): Promise<void> {
  await insertRows(db, 'units', ['run_id', 'unit_key', 'seq', 'split', 'case_id', 'arm', 'epoch'], units.map((u, seq) => [runId, u.key, seq, u.split, u.evalCase.id, u.arm.arm, u.epoch]), 'ON CONFLICT DO NOTHING');
}

export async function getRun(db: Database, runId: string): Promise<RunRow | undefined> {
  return (await db.query<RunRow>('SELECT * FROM runs WHERE run_id = $1', [runId])).rows[0];
}

export async function requireRun(db: Database, runId: string): Promise<RunRow> {
  const run = await getRun(db, runId);
  if (!run) throw new IsobudgetError('not_found', `run ${runId} is not in the database`, { hint: 'list runs with `isobudget runs list --db URL`' });
  return run;
}

export async function listRuns(db: Database, limit = 50): Promise<Array<RunRow & { committed: number }>> {
  return (await db.query<RunRow & { committed: number }>(
    `SELECT r.*, (SELECT count(*)::int FROM units u WHERE u.run_id = r.run_id AND u.state = 'committed') AS committed FROM runs r ORDER BY r.created_at DESC LIMIT $1`,
    [limit],
  )).rows;
}

export interface UnitRow {
  unit_key: string;
  seq: number;
  split: Unit['split'];
  case_id: string;
  arm: string;
  epoch: number;
  state: 'queued' | 'active' | 'committed' | 'failed' | 'cancelled';
}

export async function getUnit(db: Database, runId: string, unitKey: string): Promise<UnitRow | undefined> {
  return (await db.query<UnitRow>('SELECT unit_key, seq, split, case_id, arm, epoch, state FROM units WHERE run_id = $1 AND unit_key = $2', [runId, unitKey])).rows[0];
}

export async function openUnits(db: Database, runId: string): Promise<UnitRow[]> {
  return (await db.query<UnitRow>(`SELECT unit_key, seq, split, case_id, arm, epoch, state FROM units WHERE run_id = $1 AND state <> 'committed' ORDER BY seq`, [runId])).rows;
}

export async function countCommitted(db: Database, runId: string): Promise<number> {
  return (await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM units WHERE run_id = $1 AND state = 'committed'`, [runId])).rows[0]?.n ?? 0;
}

/** Committed results after `afterSeq` in plan order (for live progress and for results.jsonl). */
export async function resultsOf(db: Database, runId: string): Promise<ResultRecord[]> {
  return (await db.query<{ record: ResultRecord }>('SELECT record FROM results WHERE run_id = $1 ORDER BY seq', [runId])).rows.map((r) => r.record);
}

export async function finishRunRow(db: Database, runId: string, status: RunRow['status'], manifest: Manifest): Promise<void> {
  await db.query('UPDATE runs SET status = $2, manifest = $3, updated_at = now(), finished_at = now() WHERE run_id = $1', [runId, status, JSON.stringify(manifest)]);
}

/** The run's config and cases as a worker needs them (paths still the submitter's). */
export async function loadStoredInputs(db: Database, run: RunRow): Promise<{ config: ExperimentConfig; datasets: Record<string, EvalCase[]> }> {
  const config = await getInput<ExperimentConfig>(db, run.inputs.config);
  const datasets: Record<string, EvalCase[]> = {};
  for (const [name, hash] of Object.entries(run.inputs.datasets)) datasets[name] = await getInput<EvalCase[]>(db, hash);
  return { config, datasets };
}
