/** Layout of `runs/<run_id>/` and atomic writes of its small JSON files. */
import { renameSync, writeFileSync, readFileSync, existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { IsobudgetError } from '../core/errors.js';
import type { LedgerFiles } from './ledger-files.js';

export interface RunPaths extends LedgerFiles {
  dir: string;
  manifest: string;
  verdict: string;
  index: string;
  /** Space held back while a run writes, so a full disk still lets it mark itself interrupted. */
  reserve: string;
}

export function runPaths(dir: string): RunPaths {
  return {
    dir,
    calls: join(dir, 'calls.jsonl'),
    results: join(dir, 'results.jsonl'),
    interrupted: join(dir, 'interrupted-calls.jsonl'),
    intents: join(dir, 'call-intents.jsonl'),
    manifest: join(dir, 'manifest.json'),
    verdict: join(dir, 'verdict.json'),
    index: join(dir, 'ledger.sqlite'),
    reserve: join(dir, '.space-reserve'),
  };
}

/** Write to a temp file, then rename: readers never see half a manifest. */
export function writeJsonAtomic(file: string, value: unknown): void {
  const temp = `${file}.tmp-${process.pid}`;
  writeFileSync(temp, `${JSON.stringify(value, null, 2)}\n`);
  renameSync(temp, file);
}

export function readJsonFile<T>(file: string, what: string): T {
  if (!existsSync(file)) {
    throw new IsobudgetError('not_found', `${what} not found`, { location: { file }, hint: 'pass the directory of a run made by `isobudget run`' });
  }
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as T;
  } catch (error) {
    throw new IsobudgetError('parse', `${what} is not valid JSON: ${(error as Error).message}`, { location: { file } });
  }
}

/**
 * Holds `bytes` of disk in the run directory while the run writes. When the disk fills, the
 * run releases it and so can still write its manifest as `interrupted` (a manifest is
 * replaced through a temp file, which needs room for a second copy).
 */
export function reserveSpace(paths: RunPaths, bytes: number): void {
  writeFileSync(paths.reserve, Buffer.alloc(bytes));
}

export function releaseSpace(paths: RunPaths): void {
  rmSync(paths.reserve, { force: true });
}

/** A run id names a directory under `--out`: a plain name, never a path. */
const RUN_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

export function checkRunId(runId: string, flag: '--run-id' | '--id' = '--run-id'): void {
  if (!RUN_ID.test(runId) || runId.includes('..')) {
    throw new IsobudgetError('usage', `${flag} must be a plain name (letters, digits, . _ -, at most 128, no '..'), got ${JSON.stringify(runId)}`, {
      hint: flag === '--run-id'
        ? 'the run directory is <--out>/<run-id>; choose where it goes with --out, e.g. --out runs --run-id bf-001'
        : 'the loop directory is <--out>/<id>; choose where it goes with --out, e.g. --out evolve --id nightly-1',
    });
  }
}

/** e.g. `bf-20261129-071925-3fa2`: sortable by time, unique within a second. */
export function newRunId(now = new Date(), random = Math.random): string {
  const stamp = now.toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
  const suffix = Math.floor(random() * 0x10000).toString(16).padStart(4, '0');
  return `bf-${stamp}-${suffix}`;
}
