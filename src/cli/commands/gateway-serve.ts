/**
 * `isobudget gateway --upstream URL`: serve until interrupted. The data dir is locked first
 * (one gateway per key store), then the spend journal is recovered — calls that reserved and
 * never settled before the last stop are booked as spent — and only then does it listen.
 */
import { join } from 'node:path';
import { IsobudgetError } from '../../core/errors.js';
import { lockDataDir } from '../../gateway/durable/data-dir-lock.js';
import { Headroom } from '../../gateway/durable/headroom.js';
import { recoverSpend } from '../../gateway/durable/recover-spend.js';
import { SpendJournal } from '../../gateway/durable/spend-journal.js';
import { WriteQueue } from '../../gateway/durable/write-queue.js';
import { ensureGatewayDir, type GatewayPaths } from '../../gateway/data-dir.js';
import { DailyLedger, DEFAULT_MAX_BODY_BYTES, KeyStore, ledgerFileFor, startGateway, type Gateway, type GatewayOptions, type UpstreamAuth } from '../../gateway/index.js';
import { pricedSink } from '../../gateway/ledger/priced-sink.js';
import { makeScrubber } from '../../gateway/scrubber.js';
import type { PriceTable } from '../../pricing/price-table.js';
import { displayUrl } from '../../gateway/upstream-url.js';
import { EXIT } from '../exit-codes.js';
import type { CliIO } from '../io.js';

export interface ServeOptions {
  upstream: string;
  upstreamKey: string | undefined;
  keyEnv: string;
  upstreamAuth: UpstreamAuth;
  host: string;
  port: number;
  allowRemote: boolean;
  accessToken: string | undefined;
  maxBodyMb: number | undefined;
  timeouts: { connectMs?: number; firstByteMs?: number; idleMs?: number; maxCallMs?: number };
  quiet: boolean;
  /** Prices every record is costed with (`cost_usd`). */
  prices: PriceTable;
}

export async function serveGateway(options: ServeOptions, paths: GatewayPaths, io: CliIO): Promise<number> {
  const shown = upstreamDisplay(options.upstream);
  ensureGatewayDir(paths);
  const lock = lockDataDir(paths.dir);
  const log = options.quiet ? undefined : (line: string): void => void io.stderr.write(`${new Date().toISOString()} ${line}\n`);
  const scrub = makeScrubber(options.upstreamKey);
  let keys: KeyStore | undefined;
  let queue: WriteQueue | undefined;
  let journal: SpendJournal | undefined;
  let sink: DailyLedger | undefined;
  let gateway: Gateway | undefined;
  try {
    keys = KeyStore.open(paths.keys);
    const headroom = new Headroom(join(paths.dir, 'disk-headroom'));
    if (!headroom.ensure()) throw new IsobudgetError('usage', `gateway: no room to write in the data dir ${paths.dir} (it keeps 1 MiB spare for calls in flight when the disk fills); free some space or use another --data-dir`);
    queue = new WriteQueue(paths.dir, headroom, log);
    keys.onWriteError = (error) => log?.(`cannot write ${paths.keys} (${error instanceof Error ? error.message : String(error)}); spend stays in the journal and is written when it can be`);
    const recovery = await recoverSpend({ dir: paths.dir, ledgerDir: paths.ledger, keys, redact: scrub.text, baseUrl: shown }).catch((error: unknown) => {
      throw new IsobudgetError('usage', `gateway: cannot recover the spend journal in ${paths.dir}: ${error instanceof Error ? error.message : String(error)}; the gateway does not start without it`);
    });
    sink = new DailyLedger(paths.ledger, scrub.text, queue);
    journal = new SpendJournal(paths.dir, recovery.generation, keys, queue, shown);
    gateway = await startGateway({ ...listenOptions(options, log), keys, sink: pricedSink(sink, options.prices), journal });
    lock.announce(gateway.url);
    io.stdout.write(`isobudget gateway listening on ${gateway.url} → ${shown}\n`);
    io.stdout.write(`  upstream key: ${options.upstreamKey === undefined ? `$${options.keyEnv} not set — requests go upstream without a credential` : `$${options.keyEnv} (value not shown)`}\n`);
    io.stdout.write(`  Claude Code: ANTHROPIC_BASE_URL=${gateway.url} and a virtual key in ANTHROPIC_AUTH_TOKEN\n  OpenAI/Codex: base_url ${gateway.url}/v1 and a virtual key\n`);
    io.stdout.write(`  keys: ${paths.keys} (isobudget gateway keys create --budget B --tag run=…,case=…,arm=…)\n  ledger: ${ledgerFileFor(paths.ledger, new Date().toISOString())}\n`);
    if (recovery.unsettled > 0) {
      io.stdout.write(`  recovered: ${recovery.unsettled} call(s) in flight at the last stop, booked as spent at their reservations (${recovery.bookedTokens} tokens; outcome unknown_after_crash in the ledger)\n`);
    }
    await new Promise<void>((resolve) => {
      if (io.signal.aborted) resolve();
      else io.signal.addEventListener('abort', () => resolve(), { once: true });
    });
    return EXIT.ok;
  } finally {
    await gateway?.close();
    await journal?.close();
    await sink?.close();
    await queue?.close();
    keys?.close();
    lock.release();
  }
}

export function upstreamDisplay(upstream: string): string {
  if (!/^https?:\/\//.test(upstream)) throw new IsobudgetError('usage', `--upstream must be an http(s) URL, got '${displayUrlSafe(upstream)}'`, { hint: 'e.g. --upstream https://api.anthropic.com' });
  try {
    return displayUrl(upstream);
  } catch {
    throw new IsobudgetError('usage', `--upstream is not a valid URL: '${displayUrlSafe(upstream)}'`, { hint: 'e.g. --upstream https://api.anthropic.com' });
  }
}

/** An unparsable URL may still carry credentials: show only its scheme and host part. */
function displayUrlSafe(upstream: string): string {
  return upstream.replace(/\/\/[^@/]*@/, '//…@').slice(0, 200);
}

/** What every gateway process hands startGateway whatever keeps its budgets (data dir or --db). */
export function listenOptions(options: ServeOptions, log: ((line: string) => void) | undefined): Omit<GatewayOptions, 'keys' | 'sink' | 'journal' | 'store'> {
  return {
    upstream: options.upstream,
    ...(options.upstreamKey === undefined ? {} : { upstreamKey: options.upstreamKey }),
    upstreamAuth: options.upstreamAuth,
    host: options.host,
    port: options.port,
    allowRemote: options.allowRemote,
    ...(options.accessToken === undefined ? {} : { accessToken: options.accessToken }),
    maxBodyBytes: options.maxBodyMb === undefined ? DEFAULT_MAX_BODY_BYTES : options.maxBodyMb * 1024 * 1024,
    timeouts: options.timeouts,
    ...(log === undefined ? {} : { log }),
  };
}
