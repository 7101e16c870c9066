/**
 * Which directories of a runs folder are runs. A run directory holds `manifest.json`; one
 * without it (a crash between `mkdir` and the first manifest write) is a *broken* run as long
 * as it holds nothing but files a run writes. Anything else — a folder of other files, a
 * symlink, a plain file — is not a run, is never listed and can never be removed as one.
 */
import { lstatSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Manifest } from './manifest.js';

export interface RunDirEntry {
  /** The directory's name: the run id. */
  id: string;
  /** Absolute path. */
  dir: string;
  /** The manifest, when it exists and parses. */
  manifest: Manifest | undefined;
  /** ISO time the run started (manifest `created_at`); undefined for a broken run. */
  createdAt: string | undefined;
  /** Why the run is broken (no manifest, or one that does not parse); undefined when sound. */
  broken: string | undefined;
  /** Files in the directory (names). */
  files: string[];
  /** Last modification of the directory (ms since epoch), for the age of a broken run. */
  modifiedMs: number;
}

/**
 * Files a run writes into its directory (temp files of atomic writes included): the ledger
 * (runPaths), the call intents a gateway books before a call leaves, the space reserve of a
 * run being written, the index, the verdict and the report.
 */
const RUN_FILE = /^(manifest\.json|verdict\.json|calls\.jsonl|results\.jsonl|interrupted-calls\.jsonl|call-intents\.jsonl|\.space-reserve|report\.html|ledger\.sqlite(-journal|-wal|-shm)?|[^/]+\.tmp-\d+)$/;

export function isRunFileName(name: string): boolean {
  return RUN_FILE.test(name);
}

/** Run directories directly under `parent`, in name order; empty when `parent` is missing. */
export function listRunDirs(parent: string): RunDirEntry[] {
  let names: string[];
  try {
    names = readdirSync(parent).sort();
  } catch {
    return [];
  }
  const entries: RunDirEntry[] = [];
  for (const name of names) {
    const entry = inspectRunDir(join(parent, name), name);
    if (entry) entries.push(entry);
  }
  return entries;
}

/** The run directory at `dir`, or undefined when `dir` is not one (see the file comment). */
export function inspectRunDir(dir: string, id: string): RunDirEntry | undefined {
  let stat: ReturnType<typeof lstatSync>;
  try {
    stat = lstatSync(dir);
  } catch {
    return undefined;
  }
  if (!stat.isDirectory()) return undefined;
  let files: string[];
  try {
    files = readdirSync(dir).sort();
  } catch {
    return undefined;
  }
  const base = { id, dir, files, modifiedMs: stat.mtimeMs };
  if (files.includes('manifest.json')) {
    try {
      const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as Manifest;
      if (typeof manifest !== 'object' || manifest === null || typeof manifest.created_at !== 'string') throw new Error('no created_at');
      return { ...base, manifest, createdAt: manifest.created_at, broken: undefined };
    } catch {
      return onlyRunFiles(files) ? { ...base, manifest: undefined, createdAt: undefined, broken: 'manifest.json does not parse' } : undefined;
    }
  }
  if (!onlyRunFiles(files)) return undefined;
  return { ...base, manifest: undefined, createdAt: undefined, broken: files.length === 0 ? 'empty: the run stopped before its manifest was written' : 'no manifest.json: the run stopped before its manifest was written' };
}

function onlyRunFiles(files: readonly string[]): boolean {
  return files.every(isRunFileName);
}
