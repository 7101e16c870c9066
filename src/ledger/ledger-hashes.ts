/**
 * sha256 of a run's two ledgers, recorded in the manifest when the run finishes (issue 24
 * item 7) and checked by every reader: an edit of calls.jsonl or results.jsonl afterwards —
 * a deleted call, a flipped `passed` — no longer passes as the run's own record.
 */
import { createHash } from 'node:crypto';
import { closeSync, existsSync, openSync, readSync } from 'node:fs';
import type { RunPaths } from './run-dir.js';

/** What the manifest records: lowercase hex sha256 of each file's bytes. */
export interface LedgerHashes {
  'calls.jsonl': string;
  'results.jsonl': string;
}

/** Read in 1 MiB chunks: a large run's calls.jsonl is never held whole for hashing. */
const CHUNK_BYTES = 1 << 20;

export function fileSha256Sync(file: string): string {
  const hash = createHash('sha256');
  if (!existsSync(file)) return hash.digest('hex');
  const fd = openSync(file, 'r');
  try {
    const buffer = Buffer.allocUnsafe(CHUNK_BYTES);
    for (let read = readSync(fd, buffer, 0, CHUNK_BYTES, null); read > 0; read = readSync(fd, buffer, 0, CHUNK_BYTES, null)) hash.update(buffer.subarray(0, read));
  } finally {
    closeSync(fd);
  }
  return hash.digest('hex');
}

export function ledgerHashes(paths: Pick<RunPaths, 'calls' | 'results'>): LedgerHashes {
  return { 'calls.jsonl': fileSha256Sync(paths.calls), 'results.jsonl': fileSha256Sync(paths.results) };
}

/** The first file whose bytes differ from what the manifest recorded, as a sentence; undefined when all match. */
export function changedLedger(paths: Pick<RunPaths, 'calls' | 'results'>, recorded: LedgerHashes): string | undefined {
  const now = ledgerHashes(paths);
  for (const file of ['calls.jsonl', 'results.jsonl'] as const) {
    if (now[file] !== recorded[file]) return `${file} changed after the run finished: sha256 ${now[file].slice(0, 12)}… is not the ${recorded[file].slice(0, 12)}… its manifest recorded`;
  }
  return undefined;
}
