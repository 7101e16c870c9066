/** Reads a run directory's results and manifest for analysis, and cross-checks its ledgers. */
import { existsSync } from 'node:fs';
import type { Manifest } from '../ledger/manifest.js';
import { changedLedger } from '../ledger/ledger-hashes.js';
import { firstTotalsMismatch } from '../ledger/ledger-totals.js';
import { readJsonl } from '../ledger/jsonl-reader.js';
import type { CallRecord, ResultRecord } from '../ledger/records.js';
import { readJsonFile, runPaths } from '../ledger/run-dir.js';

export interface LoadedRun {
  dir: string;
  manifest: Manifest;
  results: ResultRecord[];
  /**
   * The first way the run's files disagree (issue 24 item 7): a result's calls or tokens that
   * calls.jsonl does not add up to, a call count unlike the manifest's, a ledger whose sha256
   * is not the one recorded at finish. Set: the verdict is `invalid` (verdict/integrity-rule.ts).
   */
  integrity?: string | undefined;
}

export function loadRun(dir: string): LoadedRun {
  const paths = runPaths(dir);
  const manifest = readJsonFile<Manifest>(paths.manifest, 'manifest.json');
  const { records } = readJsonl<ResultRecord>(paths.results, { requireSchemaVersion: true });
  // B unknown is Infinity in memory and null on disk (JSON has no Infinity), e.g. an import:
  // read back as unknown, never as a B of 0 that every unit would exceed.
  for (const record of records) if ((record.budget as number | null) === null) record.budget = Number.POSITIVE_INFINITY;
  return { dir, manifest, results: records, integrity: ledgerIntegrity(dir, manifest, records) };
}

/** ledgerIntegrity for a reader that has not read the results (memory ingest, gate). */
export function ledgerIntegrityOfDir(dir: string, manifest: Manifest): string | undefined {
  return ledgerIntegrity(dir, manifest, readJsonl<ResultRecord>(runPaths(dir).results, { requireSchemaVersion: true }).records);
}

/** Reads calls.jsonl and checks it against the results and the manifest; the first problem, or undefined. */
export function ledgerIntegrity(dir: string, manifest: Manifest, results: readonly ResultRecord[]): string | undefined {
  const paths = runPaths(dir);
  // No calls.jsonl and no recorded hashes: a run directory assembled by hand or by an older
  // tool — nothing to cross-check. With hashes recorded, a deleted calls.jsonl fails below.
  if (!existsSync(paths.calls) && manifest.ledger_sha256 === undefined) return undefined;
  const calls = readJsonl<CallRecord>(paths.calls).records;
  // The manifest's count is final once every unit is committed (a running run's may lag).
  const finished = manifest.ledger_sha256 !== undefined;
  const mismatch = firstTotalsMismatch(results, calls, { includeJudge: manifest.config.budget.includeJudge === true, committedCalls: finished ? manifest.calls?.committed : undefined });
  if (mismatch) return mismatch;
  return manifest.ledger_sha256 ? changedLedger(paths, manifest.ledger_sha256) : undefined;
}
