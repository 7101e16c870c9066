/**
 * Virtual keys in Postgres (`gateway_keys`): minted and listed by `gateway keys … --db`, looked
 * up by every replica. Only the secret's SHA-256 is stored. A replica caches a verified key
 * for at most `ttlMs` (1 s), so a revocation or a closure reaches every replica within that
 * — and budgets never depend on the cache: every reservation re-checks the row itself.
 */
import type { Database } from '../../../db/index.js';
import { hashSecret, mintSecret, type VirtualKey } from '../../keys/virtual-key.js';
import type { KeyLookup } from '../gateway-store.js';
import { KEY_COLUMNS } from './sql.js';

interface KeyRow {
  id: string;
  budget: string | null;
  tags: Record<string, string>;
  created_at: Date;
  spent: string;
  reserved: string;
  revoked: boolean;
  closed: string | null;
  over_reservation: string;
}

/** A key as `keys list` shows it: with the tokens its open reservations hold. */
export interface ListedKey extends VirtualKey {
  reserved: number;
}

const CACHE_LIMIT = 10_000;

export class PgKeys implements KeyLookup {
  private readonly cache = new Map<string, { key: VirtualKey | undefined; at: number }>();
  private readonly loading = new Map<string, Promise<VirtualKey | undefined>>();

  /** `onQuery`: told of each lookup's failure (or success, with undefined) — the store's health signal. */
  constructor(private readonly db: Database, private readonly ttlMs = 1_000, private readonly onQuery?: (error: unknown) => void) {}

  async create(options: { budget: number | undefined; tags: Record<string, string> }): Promise<{ key: VirtualKey; secret: string }> {
    const { id, secret } = mintSecret();
    const { rows } = await this.db.query<KeyRow>(`INSERT INTO gateway_keys (id, hash, budget, tags) VALUES ($1, $2, $3, $4) RETURNING ${KEY_COLUMNS}`, [id, hashSecret(secret), options.budget ?? null, JSON.stringify(options.tags)]);
    const [row] = rows;
    if (row === undefined) throw new Error('gateway keys create: the insert returned no row');
    return { key: toKey(row), secret };
  }

  async list(): Promise<ListedKey[]> {
    const { rows } = await this.db.query<KeyRow>(`SELECT ${KEY_COLUMNS} FROM gateway_keys ORDER BY created_at, id`);
    return rows.map((row) => ({ ...toKey(row), reserved: Number(row.reserved) }));
  }

  async get(id: string): Promise<ListedKey | undefined> {
    const { rows } = await this.db.query<KeyRow>(`SELECT ${KEY_COLUMNS} FROM gateway_keys WHERE id = $1`, [id]);
    return rows[0] === undefined ? undefined : { ...toKey(rows[0]), reserved: Number(rows[0].reserved) };
  }

  async revoke(id: string): Promise<boolean> {
    this.cache.clear();
    return ((await this.db.query('UPDATE gateway_keys SET revoked = true WHERE id = $1', [id])).rowCount ?? 0) > 0;
  }

  /** A cached answer when it is fresh (no round trip on the request's path); else one query, shared by concurrent requests. */
  verify(secret: string): VirtualKey | undefined | Promise<VirtualKey | undefined> {
    const cached = this.cache.get(secret);
    if (cached !== undefined && performance.now() - cached.at < this.ttlMs) return cached.key;
    const pending = this.loading.get(secret);
    if (pending) return pending;
    const load = this.lookup(secret).finally(() => this.loading.delete(secret));
    this.loading.set(secret, load);
    return load;
  }

  private async lookup(secret: string): Promise<VirtualKey | undefined> {
    let rows: KeyRow[];
    try {
      ({ rows } = await this.db.query<KeyRow>({ name: 'isobudget_key_by_hash', text: `SELECT ${KEY_COLUMNS} FROM gateway_keys WHERE hash = $1`, values: [hashSecret(secret)] }));
      this.onQuery?.(undefined);
    } catch (error) {
      this.onQuery?.(error);
      throw error;
    }
    const key = rows[0] === undefined ? undefined : toKey(rows[0]);
    // Unknown secrets are not cached, so they cannot grow the cache.
    if (key !== undefined) {
      if (this.cache.size >= CACHE_LIMIT) this.cache.clear();
      this.cache.set(secret, { key, at: performance.now() });
    }
    return key;
  }
}

function toKey(row: KeyRow): VirtualKey {
  return {
    id: row.id,
    budget: row.budget === null ? undefined : Number(row.budget),
    tags: row.tags,
    createdAt: row.created_at.toISOString(),
    spent: Number(row.spent),
    revoked: row.revoked,
    closed: row.closed ?? undefined,
    overReservation: Number(row.over_reservation),
  };
}
