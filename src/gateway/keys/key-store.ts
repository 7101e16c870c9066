/**
 * Virtual keys in SQLite (`keys.sqlite` in the gateway's data dir, or `:memory:` for a
 * gateway living inside a run). `keys create` and a running gateway share the file: WAL
 * mode lets one write while the other reads, and the gateway looks keys up per request,
 * so a key minted a moment ago works at once and a revoked one stops at once.
 *
 * Verified keys are cached, and the cache is dropped whenever SQLite's `data_version` says
 * another connection wrote (a key minted or revoked from the CLI) — checked at most every
 * 50 ms, so a revocation takes effect within 50 ms and a request costs a map lookup.
 *
 * Spend is booked in memory and written in batches (every 500 ms and on close): a write
 * per call would put a synchronous disk write on every request's path. The JSONL ledger
 * stays the source of truth for what was billed.
 */
import Database from 'better-sqlite3';
import { chmodSync, existsSync } from 'node:fs';
import { hashSecret, mintSecret, type VirtualKey } from './virtual-key.js';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS keys (
  id TEXT PRIMARY KEY, hash TEXT NOT NULL UNIQUE, budget INTEGER, tags TEXT NOT NULL,
  created_at TEXT NOT NULL, spent INTEGER NOT NULL DEFAULT 0, revoked INTEGER NOT NULL DEFAULT 0
);`;

interface KeyRow { id: string; budget: number | null; tags: string; created_at: string; spent: number; revoked: number }

export class KeyStore {
  private readonly db: Database.Database;
  private readonly pending = new Map<string, number>();
  private timer: NodeJS.Timeout | undefined;
  private readonly byHash: Database.Statement<[string], KeyRow>;
  private readonly dataVersion: Database.Statement<[], number>;
  private readonly cache = new Map<string, VirtualKey>();
  private cacheVersion = -1;
  private checkedAt = 0;
  private readonly byId: Database.Statement<[string], KeyRow>;

  private constructor(file: string) {
    const fresh = file !== ':memory:' && !existsSync(file);
    this.db = new Database(file);
    if (fresh) chmodSync(file, 0o600);
    this.db.pragma('journal_mode = WAL');
    // Spend is flushed from the event loop every 500 ms; in WAL mode NORMAL skips the fsync
    // of each commit (a commit still survives a crash of the process, not of the machine —
    // and every billed call is in the fdatasync'd daily ledger).
    this.db.pragma('synchronous = NORMAL');
    this.db.pragma('busy_timeout = 2000');
    this.db.exec(SCHEMA);
    this.byHash = this.db.prepare('SELECT id, budget, tags, created_at, spent, revoked FROM keys WHERE hash = ?');
    this.byId = this.db.prepare('SELECT id, budget, tags, created_at, spent, revoked FROM keys WHERE id = ?');
    this.dataVersion = this.db.prepare<[], number>('PRAGMA data_version').pluck();
  }

  static open(file: string): KeyStore {
    return new KeyStore(file);
  }

  /** Mints a key; the secret is returned once and never stored. */
  create(options: { budget: number | undefined; tags: Record<string, string> }): { key: VirtualKey; secret: string } {
    const { id, secret } = mintSecret();
    this.cache.clear();
    const createdAt = new Date().toISOString();
    this.db.prepare('INSERT INTO keys (id, hash, budget, tags, created_at) VALUES (?, ?, ?, ?, ?)').run(id, hashSecret(secret), options.budget ?? null, JSON.stringify(options.tags), createdAt);
    return { key: { id, budget: options.budget, tags: { ...options.tags }, createdAt, spent: 0, revoked: false }, secret };
  }

  /** The key a client presented, if it exists (revoked keys are returned, flagged). */
  verify(secret: string): VirtualKey | undefined {
    const now = performance.now();
    if (now - this.checkedAt > 50) {
      this.checkedAt = now;
      const version = this.dataVersion.get() ?? 0;
      if (version !== this.cacheVersion) {
        this.cache.clear();
        this.cacheVersion = version;
      }
    }
    const cached = this.cache.get(secret);
    if (cached) return cached;
    const row = this.byHash.get(hashSecret(secret));
    if (row === undefined) return undefined;
    const key = this.toKey(row);
    // Only keys that exist are cached, so unknown secrets cannot grow the cache.
    if (this.cache.size >= 10_000) this.cache.clear();
    this.cache.set(secret, key);
    return key;
  }

  get(id: string): VirtualKey | undefined {
    const row = this.byId.get(id);
    return row === undefined ? undefined : this.toKey(row);
  }

  list(): VirtualKey[] {
    return (this.db.prepare('SELECT id, budget, tags, created_at, spent, revoked FROM keys ORDER BY created_at, id').all() as KeyRow[]).map((row) => this.toKey(row));
  }

  revoke(id: string): boolean {
    this.cache.clear();
    return this.db.prepare('UPDATE keys SET revoked = 1 WHERE id = ?').run(id).changes > 0;
  }

  /** Books billed tokens against a key; written to disk within 500 ms. */
  addSpent(id: string, tokens: number): void {
    if (tokens <= 0) return;
    this.pending.set(id, (this.pending.get(id) ?? 0) + tokens);
    this.timer ??= setTimeout(() => this.flush(), 500);
    this.timer.unref();
  }

  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (this.pending.size === 0) return;
    const update = this.db.prepare('UPDATE keys SET spent = spent + ? WHERE id = ?');
    const batch = [...this.pending];
    this.pending.clear();
    this.db.transaction(() => {
      for (const [id, tokens] of batch) update.run(tokens, id);
    })();
  }

  close(): void {
    this.flush();
    if (this.db.open) this.db.close();
  }

  private toKey(row: KeyRow): VirtualKey {
    return {
      id: row.id,
      budget: row.budget ?? undefined,
      tags: JSON.parse(row.tags) as Record<string, string>,
      createdAt: row.created_at,
      spent: row.spent + (this.pending.get(row.id) ?? 0),
      revoked: row.revoked === 1,
    };
  }
}
