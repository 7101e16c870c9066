/** Where the store lives and how a command opens it. */
import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { IsobudgetError } from '../../core/errors.js';
import { fileKind } from '../../core/input-file.js';
import { policyFromSettings, type MemoryPolicy } from '../policy.js';
import type { MemoryStore } from './spec.js';
import { SqliteMemoryStore, type SqliteStoreOptions } from './sqlite-store.js';

/** Default store file, relative to the working directory. */
export const DEFAULT_STORE_PATH = '.isobudget/memory.sqlite';

const HINT = 'point --store at the memory store (default .isobudget/memory.sqlite), or at a new file to start one';
/** SQLite's "this is not a database I can open" codes, and the file system's "cannot create it here". */
const OPEN_FAILURES = /^(SQLITE_NOTADB|SQLITE_CANTOPEN|SQLITE_IOERR|SQLITE_CORRUPT|ENOTDIR|EEXIST|EACCES|EROFS)/;

/**
 * The store at `path` (created when missing). A path that names something else — a FIFO, a
 * device, a directory, a file that is not SQLite — is bad input (exit 2, one line), never
 * opened when it is not a regular file (a FIFO could block), never written to.
 */
export function openMemoryStore(path: string, cwd = process.cwd(), options: SqliteStoreOptions = {}): SqliteMemoryStore {
  const file = resolve(cwd, path);
  const stats = statSync(file, { throwIfNoEntry: false });
  if (stats !== undefined && !stats.isFile()) throw new IsobudgetError('memory_store_not_regular', `${file} is ${fileKind(stats)}, not a memory store file`, { hint: HINT });
  try {
    return new SqliteMemoryStore(file, options);
  } catch (error) {
    const code = String((error as { code?: unknown }).code ?? '');
    if (!OPEN_FAILURES.test(code)) throw error;
    throw new IsobudgetError('memory_store_unreadable', `${file} is not an isobudget memory store (SQLite), or cannot be created there: ${(error as Error).message}`, { hint: HINT, cause: error });
  }
}

export async function storePolicy(store: MemoryStore): Promise<MemoryPolicy> {
  return policyFromSettings(await store.getSettings());
}
