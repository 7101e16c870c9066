/**
 * One gateway per data dir (`gateway.lock`): two gateways on one key store would each hold
 * their own view of every budget and together spend it twice. The lock is an operating-system
 * lock (SQLite's, held by an open write transaction), so it dies with its process — a lock
 * left by a gateway that was killed is no lock at all, and a reused pid cannot fake one. The
 * file also says who holds it, for the message the second gateway prints.
 */
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { IsobudgetError } from '../../core/errors.js';

export interface DataDirLock {
  /** The gateway's URL, for whoever finds the dir locked. */
  announce(url: string): void;
  release(): void;
}

interface Owner {
  pid: number;
  started_at: string;
  url: string | null;
}

export function lockDataDir(dir: string): DataDirLock {
  const file = join(dir, 'gateway.lock');
  const db = new Database(file);
  db.pragma('busy_timeout = 0');
  const busy = (): never => {
    const owner = readOwner(db);
    db.close();
    const who = owner ? `pid ${owner.pid}, started ${owner.started_at}${owner.url ? `, ${owner.url}` : ''}` : 'another process';
    throw new IsobudgetError('usage', `gateway: data dir ${dir} is in use by another gateway (${who}); stop it, or give this one another --data-dir`);
  };
  try {
    db.exec('CREATE TABLE IF NOT EXISTS owner (id INTEGER PRIMARY KEY CHECK (id = 1), pid INTEGER NOT NULL, started_at TEXT NOT NULL, url TEXT)');
    db.exec('BEGIN IMMEDIATE');
  } catch (error) {
    if (isBusy(error)) return busy();
    db.close();
    throw error;
  }
  // Say who holds it (a commit lets go for an instant; whoever takes it then wins, and this one stops).
  const write = (url: string | null): void => {
    db.prepare('INSERT OR REPLACE INTO owner (id, pid, started_at, url) VALUES (1, ?, ?, ?)').run(process.pid, new Date().toISOString(), url);
    db.exec('COMMIT');
    try {
      db.exec('BEGIN IMMEDIATE');
    } catch (error) {
      if (isBusy(error)) busy();
      throw error;
    }
  };
  write(null);
  return {
    announce: (url) => write(url),
    release: () => {
      if (!db.open) return;
      if (db.inTransaction) db.exec('ROLLBACK');
      db.close();
    },
  };
}

function readOwner(db: Database.Database): Owner | undefined {
  try {
    return db.prepare('SELECT pid, started_at, url FROM owner WHERE id = 1').get() as Owner | undefined;
  } catch {
    return undefined;
  }
}

function isBusy(error: unknown): boolean {
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  return code === 'SQLITE_BUSY' || code === 'SQLITE_LOCKED';
}
