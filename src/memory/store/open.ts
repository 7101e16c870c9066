/** Where the store lives and how a command opens it. */
import { resolve } from 'node:path';
import { policyFromSettings, type MemoryPolicy } from '../policy.js';
import type { MemoryStore } from './spec.js';
import { SqliteMemoryStore, type SqliteStoreOptions } from './sqlite-store.js';

/** Default store file, relative to the working directory. */
export const DEFAULT_STORE_PATH = '.isobudget/memory.sqlite';

export function openMemoryStore(path: string, cwd = process.cwd(), options: SqliteStoreOptions = {}): SqliteMemoryStore {
  return new SqliteMemoryStore(resolve(cwd, path), options);
}

export async function storePolicy(store: MemoryStore): Promise<MemoryPolicy> {
  return policyFromSettings(await store.getSettings());
}
