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
 * per call would put a synchronous disk write on every request's path. A gateway with a data
 * dir journals every reservation and settlement first (spend-journal.ts); each batch then
 * records how far into the journal it reaches (`meta`), so a restart after a crash adds
 * exactly the settlements the batch had not, and nothing twice.
 */
import Database from 'better-sqlite3';
import { chmodSync, existsSync } from 'node:fs';
import { hashSecret, mintSecret, type VirtualKey } from './virtual-key.js';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS keys (
  id TEXT PRIMARY KEY, hash TEXT NOT NULL UNIQUE, budget INTEGER, tags TEXT NOT NULL,
  created_at TEXT NOT NULL, spent INTEGER NOT NULL DEFAULT 0, revoked INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS meta (name TEXT PRIMARY KEY, value INTEGER NOT NULL);`;
/** Columns added after the first release, for key stores made before them. */
const ADDED_COLUMNS = { closed: 'closed TEXT', over_reservation: 'over_reservation INTEGER NOT NULL DEFAULT 0' };

const COLUMNS = 'id, budget, tags, created_at, spent, revoked, closed, over_reservation';
interface KeyRow { id: string; budget: number | null; tags: string; created_at: string; spent: number; revoked: number; closed: string | null; over_reservation: number }

/** How far into the spend journal the booked spend reaches: journal generation and byte offset. */
export interface SpendMark {
  generation: number;
  offset: number;
}

export class KeyStore {
  private readonly db: Database.Database;
  private readonly pending = new Map<string, number>();
  private readonly closing = new Map<string, { reason: string; over: number }>();
  private timer: NodeJS.Timeout | undefined;
  private readonly byHash: Database.Statement<[string], KeyRow>;
  private readonly dataVersion: Database.Statement<[], number>;
  private readonly cache = new Map<string, VirtualKey>();
  private cacheVersion = -1;
  private checkedAt = 0;
  private readonly byId: Database.Statement<[string], KeyRow>;
  private markOf: (() => SpendMark) | undefined;
  /** Called when a batch cannot be written (it is kept and tried again). */
  onWriteError: ((error: unknown) => void) | undefined;

  private constructor(file: string) {
    const fresh = file !== ':memory:' && !existsSync(file);
    this.db = new Database(file);
    if (fresh) chmodSync(file, 0o600);
    this.db.pragma('journal_mode = WAL');
    // Spend is flushed from the event loop every 500 ms; in WAL mode NORMAL skips the fsync
    // of each commit (a commit still survives a crash of the process, not of the machine —
    // and every reservation and billed call is in the fdatasync'd journal and daily ledger).
    this.db.pragma('synchronous = NORMAL');
    this.db.pragma('busy_timeout = 2000');
    this.db.exec(SCHEMA);
    const have = new Set((this.db.prepare('PRAGMA table_info(keys)').all() as Array<{ name: string }>).map((column) => column.name));
    for (const [name, definition] of Object.entries(ADDED_COLUMNS)) if (!have.has(name)) this.db.exec(`ALTER TABLE keys ADD COLUMN ${definition}`);
    this.byHash = this.db.prepare(`SELECT ${COLUMNS} FROM keys WHERE hash = ?`);
    this.byId = this.db.prepare(`SELECT ${COLUMNS} FROM keys WHERE id = ?`);
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
    return { key: { id, budget: options.budget, tags: { ...options.tags }, createdAt, spent: 0, revoked: false, closed: undefined, overReservation: 0 }, secret };
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
    return (this.db.prepare(`SELECT ${COLUMNS} FROM keys ORDER BY created_at, id`).all() as KeyRow[]).map((row) => this.toKey(row));
  }

  revoke(id: string): boolean {
    this.cache.clear();
    return this.db.prepare('UPDATE keys SET revoked = 1 WHERE id = ?').run(id).changes > 0;
  }

  /** Books tokens against a key; written to disk within 500 ms. */
  addSpent(id: string, tokens: number): void {
    if (tokens <= 0) return;
    this.pending.set(id, (this.pending.get(id) ?? 0) + tokens);
    this.schedule();
  }

  /**
   * Closes a key for good (`reason`, e.g. over_reservation), adding `overTokens` to what it
   * billed beyond reservations. Written at once unless `now` is false (then with the next batch).
   */
  closeKey(id: string, reason: string, overTokens: number, now = true): void {
    const before = this.closing.get(id);
    this.closing.set(id, { reason: before?.reason ?? reason, over: (before?.over ?? 0) + overTokens });
    this.cache.clear();
    // A key that broke its reservation must stay closed across a restart.
    if (now) this.flush();
    else this.schedule();
  }

  /** Where the spend journal's settlements stand relative to `spent`: asked for at every batch. */
  trackSpendMark(markOf: () => SpendMark): void {
    this.markOf = markOf;
  }

  /** The journal position the stored spend reaches (0, 0 for a store that never had one). */
  spendMark(): SpendMark {
    const value = (name: string): number => (this.db.prepare('SELECT value FROM meta WHERE name = ?').pluck().get(name) as number | undefined) ?? 0;
    return { generation: value('journal_generation'), offset: value('journal_offset') };
  }

  /**
   * Writes booked spend and closures, with the journal mark, in one transaction; false (kept
   * for the next try) when the disk refuses. `withMark` writes the mark even with nothing
   * booked (a journal that starts a new generation).
   */
  flush(withMark = false): boolean {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (this.pending.size === 0 && this.closing.size === 0 && !withMark) return true;
    const mark = this.markOf?.();
    const spent = [...this.pending];
    const closing = [...this.closing];
    try {
      this.writeBatch(spent, closing, mark);
    } catch (error) {
      this.onWriteError?.(error);
      this.schedule();
      return false;
    }
    // Only what was written is cleared: addSpent may not run between the two (this is synchronous).
    this.pending.clear();
    this.closing.clear();
    return true;
  }

  close(): void {
    this.flush();
    if (this.timer) clearTimeout(this.timer);
    if (this.db.open) this.db.close();
  }

  private writeBatch(spent: Array<[string, number]>, closing: Array<[string, { reason: string; over: number }]>, mark: SpendMark | undefined): void {
    const update = this.db.prepare('UPDATE keys SET spent = spent + ? WHERE id = ?');
    const close = this.db.prepare('UPDATE keys SET closed = COALESCE(closed, ?), over_reservation = over_reservation + ? WHERE id = ?');
    const setMeta = this.db.prepare('INSERT INTO meta (name, value) VALUES (?, ?) ON CONFLICT(name) DO UPDATE SET value = excluded.value');
    this.db.transaction(() => {
      for (const [id, tokens] of spent) update.run(tokens, id);
      for (const [id, { reason, over }] of closing) close.run(reason, over, id);
      if (mark) {
        setMeta.run('journal_generation', mark.generation);
        setMeta.run('journal_offset', mark.offset);
      }
    })();
  }

  private schedule(): void {
    this.timer ??= setTimeout(() => this.flush(), 500);
    this.timer.unref();
  }

  private toKey(row: KeyRow): VirtualKey {
    const closing = this.closing.get(row.id);
    return {
      id: row.id,
      budget: row.budget ?? undefined,
      tags: JSON.parse(row.tags) as Record<string, string>,
      createdAt: row.created_at,
      spent: row.spent + (this.pending.get(row.id) ?? 0),
      revoked: row.revoked === 1,
      closed: row.closed ?? closing?.reason,
      overReservation: (row.over_reservation ?? 0) + (closing?.over ?? 0),
    };
  }
}
