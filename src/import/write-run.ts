/**
 * Writes an imported run as a run directory, all or nothing: the files go to a sibling temp
 * folder that is renamed into place once complete, so a failed import leaves no half-written
 * ledger, and an existing run is never overwritten.
 */
import { existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { IsobudgetError } from '../core/errors.js';
import { runPaths } from '../ledger/run-dir.js';
import type { ImportedRun } from './imported-run.js';

export function writeImportedRun(dir: string, run: ImportedRun): void {
  if (existsSync(dir)) throw new IsobudgetError('usage', `${dir} already exists`, { hint: 'import into a new folder (--out runs/<new-id>); an existing run is never overwritten' });
  mkdirSync(dirname(dir), { recursive: true });
  const temp = join(dirname(dir), `.${basename(dir)}.importing-${process.pid}`);
  rmSync(temp, { recursive: true, force: true });
  mkdirSync(temp);
  try {
    const paths = runPaths(temp);
    writeFileSync(paths.calls, jsonl(run.calls));
    writeFileSync(paths.results, jsonl(run.results));
    writeFileSync(paths.manifest, `${JSON.stringify(run.manifest, null, 2)}\n`);
    renameSync(temp, dir);
  } catch (error) {
    rmSync(temp, { recursive: true, force: true });
    throw error;
  }
}

function jsonl(records: readonly unknown[]): string {
  return records.map((r) => `${JSON.stringify(r)}\n`).join('');
}
