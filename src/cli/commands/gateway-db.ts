/**
 * `isobudget gateway --db URL` and `gateway keys create|list|revoke --db URL`: the gateway as
 * one of any number of replicas sharing keys, budgets, reservations and calls in Postgres
 * (migration 0002-gateway). No data dir, no lock: replicas coordinate through the database.
 */
import { IsobudgetError } from '../../core/errors.js';
import { describeDatabase, openDatabase, type Database } from '../../db/index.js';
import { formatTags, startGateway, type Gateway, type VirtualKey } from '../../gateway/index.js';
import { openPgStore, type PgGatewayStore } from '../../gateway/store/pg/open-store.js';
import { PgKeys } from '../../gateway/store/pg/pg-keys.js';
import { callCostUsd } from '../../pricing/call-cost.js';
import { EXIT } from '../exit-codes.js';
import type { CliIO } from '../io.js';
import { listenOptions, type ServeOptions } from './gateway-serve.js';

export interface DbServeOptions extends ServeOptions {
  /** Upstream as logs and the ledger show it. */
  shown: string;
  leaseTokens: number | undefined;
  /** Per-call mode's automatic leases (--auto-lease on|off). */
  autoLease: boolean;
  staleMs: number | undefined;
}

export async function serveGatewayDb(url: string, source: string, options: DbServeOptions, io: CliIO): Promise<number> {
  const log = options.quiet ? undefined : (line: string): void => void io.stderr.write(`${new Date().toISOString()} ${line}\n`);
  const db = await openDatabase(url, { applicationName: `isobudget gateway (pid ${process.pid})`, max: 16, source });
  let store: PgGatewayStore | undefined;
  let gateway: Gateway | undefined;
  try {
    store = await openPgStore({
      db, where: describeDatabase(url), upstream: options.shown, leaseTokens: options.leaseTokens, autoLease: options.autoLease, staleMs: options.staleMs,
      cost: (record) => callCostUsd(record, options.prices), log,
    });
    gateway = await startGateway({ ...listenOptions(options, log), store });
    io.stdout.write(`isobudget gateway listening on ${gateway.url} → ${options.shown}\n`);
    io.stdout.write(`  replica ${store.replica.id} on ${describeDatabase(url)}; budgets ${budgetMode(options)}\n`);
    io.stdout.write(`  upstream key: ${options.upstreamKey === undefined ? `$${options.keyEnv} not set — requests go upstream without a credential` : `$${options.keyEnv} (value not shown)`}\n`);
    const { reclaimedAtStart: r } = store;
    if (r.replicas.length > 0) io.stdout.write(`  reclaimed ${r.replicas.length} dead replica(s): ${r.reservations} open reservation(s), ${r.tokens} tokens booked as spent (unknown_after_crash)\n`);
    await new Promise<void>((resolve) => {
      if (io.signal.aborted) resolve();
      else io.signal.addEventListener('abort', () => resolve(), { once: true });
    });
    return EXIT.ok;
  } finally {
    // The server first (calls in flight settle), then the store (writes land, leases return), then the pool.
    if (gateway) await gateway.close();
    else await store?.close();
    await db.end().catch(() => {});
  }
}

export async function keysCommandDb(url: string, source: string, action: 'create' | 'list' | 'revoke', args: { budget: number | undefined; tags: Record<string, string>; id: string | undefined; json: boolean }, io: CliIO): Promise<number> {
  const db: Database = await openDatabase(url, { applicationName: `isobudget gateway keys ${action}`, max: 2, source });
  const keys = new PgKeys(db);
  try {
    if (action === 'create') {
      const { key, secret } = await keys.create({ budget: args.budget, tags: args.tags });
      if (args.json) io.stdout.write(`${JSON.stringify({ id: key.id, key: secret, budget: key.budget ?? null, tags: key.tags })}\n`);
      else {
        io.stdout.write(`${secret}\n`);
        io.stderr.write(`created key ${key.id} in ${describeDatabase(url)} (budget ${key.budget ?? 'none: record only'}${formatTags(key.tags) ? `, tags ${formatTags(key.tags)}` : ''}); it is shown only now\n`);
      }
      return EXIT.ok;
    }
    if (action === 'revoke') {
      if (!args.id) throw new IsobudgetError('usage', 'gateway keys revoke: missing key ID');
      if (!(await keys.revoke(args.id))) throw new IsobudgetError('not_found', `gateway keys revoke: no key with id ${args.id} in ${describeDatabase(url)}`, { hint: 'list them with `isobudget gateway keys list --db URL`' });
      io.stdout.write(`revoked ${args.id}\n`);
      return EXIT.ok;
    }
    const list = await keys.list();
    if (args.json) {
      io.stdout.write(`${JSON.stringify(list.map((k) => ({ id: k.id, budget: k.budget ?? null, spent: k.spent, reserved: k.reserved, tags: k.tags, created_at: k.createdAt, revoked: k.revoked, closed: k.closed ?? null, over_reservation: k.overReservation })))}\n`);
      return EXIT.ok;
    }
    io.stdout.write(`${'id'.padEnd(14)}${'budget'.padStart(10)}${'spent'.padStart(10)}${'reserved'.padStart(10)}  ${'created'.padEnd(25)}tags\n`);
    for (const k of list) io.stdout.write(`${k.id.padEnd(14)}${String(k.budget ?? '-').padStart(10)}${String(k.spent).padStart(10)}${String(k.reserved).padStart(10)}  ${k.createdAt.padEnd(25)}${formatTags(k.tags)}${k.revoked ? ' (revoked)' : ''}${closedNote(k)}\n`);
    return EXIT.ok;
  } finally {
    await db.end().catch(() => {});
  }
}

function budgetMode(options: DbServeOptions): string {
  if (options.leaseTokens !== undefined) return `leased ${options.leaseTokens} tokens at a time`;
  return options.autoLease ? 'reserved per call (automatic leases on)' : 'reserved per call on the key row (automatic leases off)';
}

function closedNote(key: VirtualKey): string {
  if (key.closed === undefined) return '';
  if (key.closed === 'over_reservation') return ` (closed: over_reservation — billed ${key.overReservation} tokens beyond what its calls reserved)`;
  return ` (closed: ${key.closed})`;
}
