/**
 * Team runs (PostgreSQL, `--db`) for the viewer: each run's manifest, results and committed
 * calls copied read-only into a private folder the viewer owns (never the user's runs folder,
 * never a write to the database), refreshed when a run's committed units or status change.
 * The screens then read them like any run directory.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Database } from '../db/spec.js';
import type { Manifest } from '../ledger/manifest.js';
import type { CallRecord, ResultRecord } from '../ledger/records.js';
import { writeJsonAtomic } from '../ledger/run-dir.js';

interface TeamRunRow {
  run_id: string;
  status: string;
  manifest: Manifest;
  committed: number;
}

/** Plain run ids only: a snapshot's folder name comes from the database. */
const PLAIN_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,120}$/;

export class TeamSnapshots {
  private readonly seen = new Map<string, string>();
  private last = 0;
  private pending: Promise<void> | undefined;

  constructor(private readonly db: Database, readonly dir: string, private readonly everyMs = 3000) {
    mkdirSync(dir, { recursive: true });
  }

  /** Brings the snapshots up to date at most every `everyMs`; concurrent callers share one refresh. */
  refresh(): Promise<void> {
    if (this.pending) return this.pending;
    if (Date.now() - this.last < this.everyMs) return Promise.resolve();
    this.pending = this.read().finally(() => {
      this.last = Date.now();
      this.pending = undefined;
    });
    return this.pending;
  }

  private async read(): Promise<void> {
    const { rows } = await this.db.query<TeamRunRow>(
      `SELECT r.run_id, r.status, r.manifest, (SELECT count(*)::int FROM units u WHERE u.run_id = r.run_id AND u.state = 'committed') AS committed
         FROM runs r ORDER BY r.created_at DESC LIMIT 200`,
    );
    for (const row of rows) {
      if (!PLAIN_ID.test(row.run_id)) continue;
      const stamp = `${row.status}|${row.committed}`;
      if (this.seen.get(row.run_id) === stamp) continue;
      await this.write(row);
      this.seen.set(row.run_id, stamp);
    }
  }

  private async write(row: TeamRunRow): Promise<void> {
    const [results, calls] = await Promise.all([
      this.db.query<{ record: ResultRecord }>('SELECT record FROM results WHERE run_id = $1 ORDER BY seq', [row.run_id]),
      this.db.query<{ record: CallRecord }>(`SELECT record FROM calls WHERE run_id = $1 AND state = 'committed' ORDER BY id`, [row.run_id]),
    ]);
    const dir = join(this.dir, row.run_id);
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    const lines = (records: ReadonlyArray<{ record: unknown }>): string => records.map((r) => `${JSON.stringify(r.record)}\n`).join('');
    writeFileSync(join(dir, 'results.jsonl'), lines(results.rows));
    writeFileSync(join(dir, 'calls.jsonl'), lines(calls.rows));
    const status = row.status === 'complete' ? 'complete' : row.status === 'running' ? 'running' : 'interrupted';
    // A team run's hashes and call counts are the database's; the snapshot's own files are checked unit by unit.
    const { ledger_sha256: _hashes, calls: _counts, ...manifest } = row.manifest as Manifest & { ledger_sha256?: unknown };
    writeJsonAtomic(join(dir, 'manifest.json'), { ...manifest, status, team: true });
  }
}
