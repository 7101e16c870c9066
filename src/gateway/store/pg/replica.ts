/**
 * A gateway replica's row in `gateway_replicas`: registered at start, kept fresh by a
 * heartbeat (every `heartbeatMs`), marked `stopped` at a clean stop. Every heartbeat also
 * reclaims replicas whose heartbeat is older than `staleMs` (killed, or cut off): their open
 * reservations — calls that may have been billed, and unused lease tokens — are booked as
 * spent, each with an `unknown_after_crash` call row, and are never granted again.
 *
 * A replica that finds itself reclaimed (it stalled past `staleMs`) re-registers under a new
 * id; its calls still in flight settle against rows that are gone, which books only what they
 * billed beyond the reservation the reclaim already booked.
 */
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { Database } from '../../../db/index.js';
import { finishReason } from '../../../core/finish-reason.js';
import { UNKNOWN_USAGE } from '../../../core/usage.js';
import { buildGatewayRecord, type GatewayCallRecord } from '../../ledger/gateway-record.js';
import { BOOK_RECLAIMED, HEARTBEAT, INSERT_RECLAIMED_CALLS, MARK_STALE, TAKE_RESERVATIONS } from './sql.js';

export interface ReplicaOptions {
  /** The upstream as the ledger shows it (no credentials). */
  upstream: string;
  leaseTokens: number | undefined;
  /** Default: a quarter of `staleMs`, at most 1 s. */
  heartbeatMs?: number | undefined;
  /** A replica silent this long is declared dead and reclaimed (ms). */
  staleMs?: number | undefined;
  log?: ((line: string) => void) | undefined;
}

export interface Reclaimed {
  replicas: string[];
  reservations: number;
  tokens: number;
}

interface TakenRow {
  ticket: string;
  key_id: string;
  replica_id: string;
  kind: 'call' | 'lease';
  tokens: string;
  model: string | null;
  endpoint: string | null;
  protocol: string | null;
  stream: boolean | null;
  session_id: string | null;
  created_at: Date;
  tags: Record<string, string>;
}

export const DEFAULT_HEARTBEAT_MS = 1_000;
export const DEFAULT_STALE_MS = 10_000;

export class Replica {
  id = '';
  private timer: NodeJS.Timeout | undefined;
  private beating: Promise<void> | undefined;
  /** Called after a re-registration (this replica had been reclaimed). */
  onRenewed: (() => void) | undefined;
  readonly staleMs: number;

  constructor(private readonly db: Database, private readonly options: ReplicaOptions) {
    this.staleMs = options.staleMs ?? DEFAULT_STALE_MS;
  }

  /** Registers, reclaims what stale replicas left, and starts the heartbeat. */
  async start(): Promise<Reclaimed> {
    await this.register();
    const reclaimed = await this.reclaimStale();
    this.timer = setInterval(() => {
      this.beating ??= this.beat().finally(() => (this.beating = undefined));
    }, this.options.heartbeatMs ?? Math.min(DEFAULT_HEARTBEAT_MS, Math.max(10, Math.floor(this.staleMs / 4))));
    this.timer.unref();
    return reclaimed;
  }

  /** Books whatever this replica still holds (nothing after a clean drain) and marks it stopped. */
  async stop(): Promise<Reclaimed> {
    if (this.timer) clearInterval(this.timer);
    await this.beating;
    const client = await this.db.connect();
    try {
      await client.query('BEGIN');
      await client.query(`UPDATE gateway_replicas SET state = 'stopped', heartbeat_at = now() WHERE id = $1 AND state = 'live'`, [this.id]);
      const left = await takeAndBook(client, [this.id], this.options.upstream);
      await client.query('COMMIT');
      return left;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => {});
      throw error;
    } finally {
      client.release();
    }
  }

  /** Declares replicas silent for `staleMs` dead and books their reservations as spent. */
  async reclaimStale(): Promise<Reclaimed> {
    const client = await this.db.connect();
    try {
      await client.query('BEGIN');
      const dead = (await client.query<{ id: string }>(MARK_STALE, [this.staleMs, this.id])).rows.map((r) => r.id);
      // Also sweeps reservations that committed as their replica was being reclaimed.
      const taken = await takeAndBook(client, dead, this.options.upstream);
      await client.query('COMMIT');
      if (taken.reservations > 0) this.options.log?.(`reclaimed replica(s) ${dead.join(', ')}: ${taken.reservations} open reservation(s), ${taken.tokens} tokens booked as spent (unknown_after_crash)`);
      return taken;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => {});
      throw error;
    } finally {
      client.release();
    }
  }

  private async register(): Promise<void> {
    this.id = `${hostname().replace(/[^A-Za-z0-9_.-]/g, '_').slice(0, 40)}-${process.pid}-${randomBytes(3).toString('hex')}`;
    await this.db.query('INSERT INTO gateway_replicas (id, host, pid, upstream, lease_tokens) VALUES ($1, $2, $3, $4, $5)', [this.id, hostname(), process.pid, this.options.upstream, this.options.leaseTokens ?? null]);
  }

  /** One heartbeat now (the timer's): refreshes this replica — re-registering if it was reclaimed — and reclaims stale ones. */
  async beat(): Promise<void> {
    try {
      const alive = (await this.db.query(HEARTBEAT, [this.id])).rowCount === 1;
      if (!alive) {
        const old = this.id;
        await this.register();
        this.options.log?.(`this replica (${old}) was declared dead by another after ${this.staleMs} ms without a heartbeat; its reservations were booked as spent; serving on as ${this.id}`);
        this.onRenewed?.();
      }
      await this.reclaimStale();
    } catch (error) {
      this.options.log?.(`heartbeat failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}

type Client = Pick<Database, 'query'>;

async function takeAndBook(client: Client, replicas: string[], upstream: string): Promise<Reclaimed> {
  const rows = (await client.query<TakenRow>(TAKE_RESERVATIONS, [replicas])).rows.filter((row) => Number(row.tokens) > 0 || row.kind === 'call');
  // A reclaimed replica's lease row emptied by its last settlements is gone with nothing to book.
  if (rows.length === 0) return { replicas, reservations: 0, tokens: 0 };
  await client.query(BOOK_RECLAIMED, [rows.map((r) => r.key_id), rows.map((r) => r.tokens)]);
  await client.query(INSERT_RECLAIMED_CALLS, [JSON.stringify(rows.map((row) => unknownRecord(row, upstream)))]);
  return { replicas, reservations: rows.length, tokens: rows.reduce((sum, row) => sum + Number(row.tokens), 0) };
}

/** The record of a reservation whose replica died: it may have been billed up to its tokens, so they are booked. */
function unknownRecord(row: TakenRow, upstream: string): GatewayCallRecord & { replica_id: string } {
  const tokens = Number(row.tokens);
  const lease = row.kind === 'lease';
  const record = buildGatewayRecord(
    { callId: row.ticket, keyId: row.key_id, tags: row.tags, sessionId: row.session_id ?? undefined, endpoint: row.endpoint ?? (lease ? '(lease)' : '-'), protocol: row.protocol ?? '-', baseUrl: upstream, model: row.model ?? (lease ? '(lease)' : 'unknown'), stream: row.stream === true, attempt: 1 },
    {
      usage: UNKNOWN_USAGE, finish: finishReason('error', 'unknown_after_crash'), maxTokens: 0, requestedMaxTokens: undefined, ttfbMs: undefined, gatewayMs: undefined, status: undefined,
      error: lease ? `replica ${row.replica_id} stopped holding this lease: calls it served from it may have been billed, so its unused tokens are booked as spent` : `replica ${row.replica_id} stopped before this call ended: it may have been billed, so its reservation is booked as spent`,
      note: `reserved at ${row.created_at.toISOString()}`, reservedTokens: tokens, bookedTokens: tokens, outcome: 'unknown_after_crash',
    },
    0,
    new Date(),
  );
  return { ...record, replica_id: row.replica_id };
}
