/** Reads a run directory's results and manifest for analysis. */
import type { Manifest } from '../ledger/manifest.js';
import { readJsonl } from '../ledger/jsonl-reader.js';
import type { ResultRecord } from '../ledger/records.js';
import { readJsonFile, runPaths } from '../ledger/run-dir.js';

export interface LoadedRun {
  dir: string;
  manifest: Manifest;
  results: ResultRecord[];
}

export function loadRun(dir: string): LoadedRun {
  const paths = runPaths(dir);
  const manifest = readJsonFile<Manifest>(paths.manifest, 'manifest.json');
  const { records } = readJsonl<ResultRecord>(paths.results, { requireSchemaVersion: true });
  // B unknown is Infinity in memory and null on disk (JSON has no Infinity), e.g. an import:
  // read back as unknown, never as a B of 0 that every unit would exceed.
  for (const record of records) if ((record.budget as number | null) === null) record.budget = Number.POSITIVE_INFINITY;
  return { dir, manifest, results: records };
}
