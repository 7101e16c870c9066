#!/usr/bin/env node
/**
 * A gateway replica for before/after benchmarks of builds older than `gateway --auto-lease`: what
 * `isobudget gateway --db URL --upstream URL --port 0 --quiet` runs (serveGatewayDb: a pool of
 * 16 named after the pid, openPgStore, startGateway), from dist/, with `--no-auto-lease`
 * turning per-call mode's automatic leases off (every call reserves on the key row, as before
 * issue 23 item 7). Prints the CLI's `listening on URL` line; stops on SIGTERM like the CLI.
 *
 *   node bench/support/gateway-replica.mjs --db URL --upstream URL [--no-auto-lease] [--dist DIR]
 */
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

const { values } = parseArgs({ options: { db: { type: 'string' }, upstream: { type: 'string' }, 'no-auto-lease': { type: 'boolean', default: false }, dist: { type: 'string' } } });
const dist = values.dist ?? join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'dist');
const load = (path) => import(pathToFileURL(join(dist, path)).href);
const { openDatabase, describeDatabase } = await load('db/index.js');
const { openPgStore } = await load('gateway/store/pg/open-store.js');
const { startGateway } = await load('gateway/index.js');

const db = await openDatabase(values.db, { applicationName: `isobudget gateway (pid ${process.pid})`, max: 16, source: '--db' });
const store = await openPgStore({ db, where: describeDatabase(values.db), upstream: values.upstream, autoLease: !values['no-auto-lease'] });
const gateway = await startGateway({ upstream: values.upstream, upstreamAuth: 'auto', host: '127.0.0.1', port: 0, store });
process.stdout.write(`isobudget gateway listening on ${gateway.url} → ${values.upstream}\n`);
process.once('SIGTERM', async () => {
  await gateway.close();
  await db.end().catch(() => {});
  process.exit(0);
});
