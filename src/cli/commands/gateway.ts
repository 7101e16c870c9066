/**
 * `isobudget gateway` — the recording, budget-enforcing gateway (DESIGN §8), its virtual
 * keys and its ledger. Keys and ledger live in one data dir shared by every subcommand.
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { IsobudgetError } from '../../core/errors.js';
import { ensureGatewayDir, gatewayPaths, type GatewayPaths } from '../../gateway/data-dir.js';
import { buildGatewayIndex, formatTags, KeyStore, parseTags, type UpstreamAuth } from '../../gateway/index.js';
import { renderSummary, summarizeGatewayIndex } from '../../gateway/ledger/ledger-summary.js';
import { loadPricingFile } from '../../config/load-pricing-file.js';
import { buildPriceTable } from '../../pricing/build-table.js';
import type { PriceTable } from '../../pricing/price-table.js';
import { intOption, type Options, parseCommandArgs, unknownSubcommand } from '../args.js';
import { durationOption } from '../duration-option.js';
import { PRICING_OPTION } from '../common-options.js';
import { EXIT } from '../exit-codes.js';
import type { CliIO } from '../io.js';
import { serveGateway, upstreamDisplay, type ServeOptions } from './gateway-serve.js';
import { databaseUrl } from '../../config/database-url.js';
import type { CommandSpec } from './spec.js';

const USAGE = `isobudget gateway --upstream URL [--port 8788] [--host 127.0.0.1] [--upstream-key-env ISOBUDGET_UPSTREAM_API_KEY]
        [--upstream-auth auto|bearer|x-api-key] [--data-dir DIR] [--max-body-mb 32] [--allow-remote --access-token-env NAME] [--quiet] [--pricing FILE]
        [--connect-timeout 10s] [--first-byte-timeout 10m] [--idle-timeout 5m] [--max-call-duration 30m]
isobudget gateway --db URL --upstream URL [--budget-lease TOKENS | --auto-lease on|off] [--replica-timeout 10s] [the options above but --data-dir]
isobudget gateway keys create [--budget TOKENS] [--tag run=…,case=…,arm=…] [--data-dir DIR | --db URL] [--json]
isobudget gateway keys list [--data-dir DIR | --db URL] [--json]
isobudget gateway keys revoke ID [--data-dir DIR | --db URL]
isobudget gateway ledger index|show [--data-dir DIR] [--pricing FILE]
Every call is costed (cost_usd) with the dated default prices, or --pricing FILE (model → USD per million tokens) over them.
Keys are shown once, at creation, and stored only as hashes. The upstream key is read from the env var --upstream-key-env names.
--db URL (or $ISOBUDGET_DATABASE_URL): keys, budgets, reservations and calls in PostgreSQL, shared by any number of gateway
replicas (run \`isobudget db migrate\` once). Each call reserves with one statement — a call with an output cap from a small
lease its replica holds on the key (automatic leases; --auto-lease off: every call on the key's row) — unless --budget-lease TOKENS:
a replica then serves from a leased slice of the key's budget in memory. A replica silent for --replica-timeout is declared dead: its open
reservations are booked as spent (unknown_after_crash), never granted again.`;

const DEFAULT_UPSTREAM_KEY_ENV = 'ISOBUDGET_UPSTREAM_API_KEY';
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

const OPTIONS = {
  upstream: { type: 'string', value: 'URL', help: 'serve: the API the gateway forwards to (required)', example: 'https://api.openai.com/v1' },
  port: { type: 'string', value: 'P', help: 'serve: the port to listen on (0: any free one)', fallback: '8788', example: '9000' },
  host: { type: 'string', value: 'HOST', help: 'serve: the address to listen on (non-loopback needs --allow-remote)', fallback: '127.0.0.1', example: '0.0.0.0' },
  'upstream-key-env': { type: 'string', value: 'NAME', help: 'serve: the env var holding the upstream API key', fallback: DEFAULT_UPSTREAM_KEY_ENV, example: 'OPENAI_API_KEY' },
  'upstream-auth': { type: 'string', value: 'MODE', help: 'serve: how the upstream key is sent: auto, bearer or x-api-key', fallback: 'auto', example: 'x-api-key' },
  'data-dir': { type: 'string', value: 'DIR', help: 'keys and ledger folder', fallback: '$ISOBUDGET_GATEWAY_DIR, else ~/.isobudget/gateway', example: './gw' },
  'max-body-mb': { type: 'string', value: 'N', help: 'serve: largest request body (MiB)', fallback: '32', example: '64' },
  'connect-timeout': { type: 'string', value: 'DURATION', help: 'serve: time to connect upstream', fallback: '10s', example: '30s' },
  'first-byte-timeout': { type: 'string', value: 'DURATION', help: 'serve: time to the upstream\'s first byte', fallback: '10m', example: '2m' },
  'idle-timeout': { type: 'string', value: 'DURATION', help: 'serve: longest time in a streamed response without content or usage (keep-alive pings do not count)', fallback: '5m', example: '1m' },
  'max-call-duration': { type: 'string', value: 'DURATION', help: 'serve: longest a model call may take, sent to last byte; then it is cut and its reservation settled', fallback: '30m', example: '1h' },
  'allow-remote': { type: 'boolean', help: 'serve: listen beyond loopback (needs --access-token-env)' },
  'access-token-env': { type: 'string', value: 'NAME', help: 'serve: env var holding the token remote clients must present', example: 'GATEWAY_ACCESS_TOKEN' },
  quiet: { type: 'boolean', help: 'serve: no request log on stderr' },
  budget: { type: 'string', value: 'TOKENS', help: 'keys create: the key\'s token budget', fallback: 'none: the key only records', example: '500000' },
  tag: { type: 'string', multiple: true, value: 'K=V,…', help: 'keys create: tags recorded on every call of the key', example: 'run=r1,arm=candidate' },
  json: { type: 'boolean', help: 'keys create|list: print JSON' },
  pricing: { ...PRICING_OPTION, help: 'serve, ledger show: model → USD per million tokens, over the dated defaults' },
  db: { type: 'string', value: 'URL', help: 'keys, budgets and calls in PostgreSQL, shared by gateway replicas (not with --data-dir)', fallback: '$ISOBUDGET_DATABASE_URL', example: 'postgres://postgres@127.0.0.1:5432/isobudget' },
  'budget-lease': { type: 'string', value: 'TOKENS', help: 'serve --db: lease this many tokens of a key at a time and admit calls from the lease in memory', fallback: 'none: every call reserves in the database', example: '100000' },
  'auto-lease': { type: 'string', value: 'on|off', help: 'serve --db, per call: a capped call reserves from a small lease its replica holds on the key (off: every call reserves on the key row)', fallback: 'on', example: 'off' },
  'replica-timeout': { type: 'string', value: 'DURATION', help: 'serve --db: a replica silent this long is declared dead; its open reservations are booked as spent', fallback: '10s', example: '30s' },
} as const satisfies Options;

type Values = ReturnType<typeof parseCommandArgs<typeof OPTIONS>>['values'];

export const gatewayCommand: CommandSpec = {
  summary: 'a local gateway that records every call of Claude Code, Codex or any client and enforces per-key token budgets',
  async run(argv, io) {
    const { values, positionals } = parseCommandArgs('gateway', argv, OPTIONS, USAGE);
    const database = databaseUrl(values.db, io.env);
    if (database !== undefined) return withDatabase(database, positionals, values, io);
    for (const flag of ['budget-lease', 'replica-timeout', 'auto-lease'] as const) {
      if (values[flag] !== undefined) throw new IsobudgetError('usage', `gateway: --${flag} needs --db URL (gateway replicas on PostgreSQL)`, { hint: USAGE });
    }
    const paths = gatewayPaths(values['data-dir'], io.env, io.cwd);
    const [group, action, ...rest] = positionals;
    if (group === 'keys') return keysCommand(action, rest, values, paths, io);
    if (group === 'ledger') return ledgerCommand(action, paths, io, pricesFrom(values, io.cwd));
    if (group !== undefined) throw unknownSubcommand('gateway', group, ['keys', 'ledger'], USAGE);
    return serve(values, paths, io);
  },
};

/** `--db URL`: keys and budgets in PostgreSQL, shared by replicas. */
async function withDatabase(database: { url: string; source: string }, positionals: string[], values: Values, io: CliIO): Promise<number> {
  const [group, action, ...rest] = positionals;
  // Loaded only here: the embedded gateway never loads pg.
  const { keysCommandDb, serveGatewayDb } = await import('./gateway-db.js');
  if (values['data-dir'] !== undefined) throw new IsobudgetError('usage', 'gateway: --data-dir and --db exclude each other (with --db, keys and calls live in the database)', { hint: USAGE });
  if (group === 'keys') {
    if (action !== 'create' && action !== 'list' && action !== 'revoke') throw new IsobudgetError('usage', "gateway keys: expected 'create', 'list' or 'revoke'", { hint: USAGE });
    return keysCommandDb(database.url, database.source, action, { ...mintOptions(values), id: rest[0], json: values.json === true }, io);
  }
  if (group === 'ledger') throw new IsobudgetError('usage', 'gateway ledger reads a data dir; with --db, the calls are in the gateway_calls table', { hint: USAGE });
  if (group !== undefined) throw unknownSubcommand('gateway', group, ['keys'], USAGE);
  const options = serveOptions(values, io);
  const leaseTokens = intOption('budget-lease', values['budget-lease']);
  if (leaseTokens === 0) throw new IsobudgetError('usage', '--budget-lease must be a positive number of tokens (omit it to reserve per call)');
  const autoLease = autoLeaseOption(values['auto-lease']);
  if (leaseTokens !== undefined && values['auto-lease'] !== undefined) {
    throw new IsobudgetError('usage', 'gateway: --auto-lease is for per-call budgets; --budget-lease leases every call already', { hint: 'drop one of them' });
  }
  return serveGatewayDb(database.url, database.source, { ...options, shown: upstreamDisplay(options.upstream), leaseTokens, autoLease, staleMs: durationOption('replica-timeout', values['replica-timeout']) }, io);
}

function autoLeaseOption(value: string | undefined): boolean {
  if (value === undefined || value === 'on') return true;
  if (value === 'off') return false;
  throw new IsobudgetError('usage', `--auto-lease must be on or off, got '${value}'`, { hint: 'e.g. --auto-lease off: every call reserves on the key row' });
}

function mintOptions(values: Values): { budget: number | undefined; tags: Record<string, string> } {
  const budget = intOption('budget', values.budget);
  if (budget === 0) throw new IsobudgetError('usage', '--budget must be a positive number of tokens (omit it for a key that only records)');
  return { budget, tags: Object.assign({}, ...(values.tag ?? []).map((text) => parseTags(text))) as Record<string, string> };
}

async function serve(values: Values, paths: GatewayPaths, io: CliIO): Promise<number> {
  return serveGateway(serveOptions(values, io), paths, io);
}

function serveOptions(values: Values, io: CliIO): ServeOptions {
  if (values.upstream === undefined) throw new IsobudgetError('usage', 'gateway: --upstream URL is required', { hint: USAGE });
  const keyEnv = envName('upstream-key-env', values['upstream-key-env'] ?? DEFAULT_UPSTREAM_KEY_ENV);
  const tokenEnv = values['access-token-env'] === undefined ? undefined : envName('access-token-env', values['access-token-env']);
  const accessToken = tokenEnv === undefined ? undefined : nonEmpty(io.env[tokenEnv]);
  if (tokenEnv !== undefined && accessToken === undefined) throw new IsobudgetError('usage', `gateway: environment variable ${tokenEnv} (--access-token-env) is not set`);
  const connectMs = durationOption('connect-timeout', values['connect-timeout']);
  const firstByteMs = durationOption('first-byte-timeout', values['first-byte-timeout']);
  const idleMs = durationOption('idle-timeout', values['idle-timeout']);
  const maxCallMs = durationOption('max-call-duration', values['max-call-duration']);
  return {
    upstream: values.upstream,
    upstreamKey: nonEmpty(io.env[keyEnv]),
    keyEnv,
    upstreamAuth: upstreamAuth(values['upstream-auth']),
    host: values.host ?? '127.0.0.1',
    port: intOption('port', values.port) ?? 8788,
    allowRemote: values['allow-remote'] === true,
    accessToken,
    maxBodyMb: positiveMb(values['max-body-mb']),
    timeouts: { ...(connectMs === undefined ? {} : { connectMs }), ...(firstByteMs === undefined ? {} : { firstByteMs }), ...(idleMs === undefined ? {} : { idleMs }), ...(maxCallMs === undefined ? {} : { maxCallMs }) },
    quiet: values.quiet === true,
    prices: pricesFrom(values, io.cwd),
  };
}

function positiveMb(value: string | undefined): number | undefined {
  const mb = intOption('max-body-mb', value);
  if (mb === 0) throw new IsobudgetError('usage', '--max-body-mb must be at least 1 (MiB)');
  return mb;
}

function keysCommand(action: string | undefined, rest: string[], values: Values, paths: GatewayPaths, io: CliIO): number {
  if (action !== 'create' && action !== 'list' && action !== 'revoke') throw unknownSubcommand('gateway keys', action, ['create', 'list', 'revoke'], USAGE);
  ensureGatewayDir(paths);
  const keys = KeyStore.open(paths.keys);
  try {
    if (action === 'create') {
      const { key, secret } = keys.create(mintOptions(values));
      if (values.json) io.stdout.write(`${JSON.stringify({ id: key.id, key: secret, budget: key.budget ?? null, tags: key.tags })}\n`);
      else {
        // The secret alone on stdout, so `KEY=$(isobudget gateway keys create …)` works; the rest on stderr.
        io.stdout.write(`${secret}\n`);
        io.stderr.write(`created key ${key.id} (budget ${key.budget ?? 'none: record only'}${formatTags(key.tags) ? `, tags ${formatTags(key.tags)}` : ''}); it is shown only now\n`);
      }
      return EXIT.ok;
    }
    if (action === 'revoke') {
      const id = rest[0];
      if (!id) throw new IsobudgetError('usage', 'gateway keys revoke: missing key ID', { hint: USAGE });
      if (!keys.revoke(id)) throw new IsobudgetError('not_found', `gateway keys revoke: no key with id ${id}`, { hint: 'list them with `isobudget gateway keys list`' });
      io.stdout.write(`revoked ${id}\n`);
      return EXIT.ok;
    }
    const list = keys.list();
    if (values.json) io.stdout.write(`${JSON.stringify(list.map((k) => ({ id: k.id, budget: k.budget ?? null, spent: k.spent, tags: k.tags, created_at: k.createdAt, revoked: k.revoked, closed: k.closed ?? null, over_reservation: k.overReservation })))}\n`);
    else {
      io.stdout.write(`${'id'.padEnd(14)}${'budget'.padStart(10)}${'spent'.padStart(10)}  ${'created'.padEnd(25)}tags\n`);
      for (const k of list) io.stdout.write(`${k.id.padEnd(14)}${String(k.budget ?? '-').padStart(10)}${String(k.spent).padStart(10)}  ${k.createdAt.padEnd(25)}${formatTags(k.tags)}${k.revoked ? ' (revoked)' : ''}${closedNote(k)}\n`);
    }
    return EXIT.ok;
  } finally {
    keys.close();
  }
}

/** The dated defaults, with `--pricing FILE` over them. */
function pricesFrom(values: Values, cwd: string): PriceTable {
  const file = values.pricing === undefined ? undefined : resolve(cwd, values.pricing);
  return buildPriceTable({ file: file === undefined ? undefined : { path: file, prices: loadPricingFile(file) } });
}

function ledgerCommand(action: string | undefined, paths: GatewayPaths, io: CliIO, prices: PriceTable): number {
  if (action !== 'index' && action !== 'show') throw unknownSubcommand('gateway ledger', action, ['index', 'show'], USAGE);
  if (!existsSync(paths.ledger)) throw new IsobudgetError('not_found', `no gateway ledger in ${paths.dir}`, { hint: 'start `isobudget gateway` first, or pass --data-dir' });
  const index = buildGatewayIndex(paths.ledger, prices);
  if (action === 'index') {
    io.stdout.write(`indexed ${index.calls} calls from ${index.days} daily files into ${index.file}\n`);
    return EXIT.ok;
  }
  io.stdout.write(`gateway ledger ${paths.ledger} (${index.calls} calls, ${index.days} days)\n${renderSummary(summarizeGatewayIndex(join(paths.ledger, 'index.sqlite')))}`);
  return EXIT.ok;
}

function envName(flag: string, value: string): string {
  if (!ENV_NAME.test(value)) throw new IsobudgetError('usage', `--${flag} takes the NAME of an environment variable, not a value`, { hint: `e.g. --${flag} MY_VAR, after export MY_VAR=…` });
  return value;
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value.trim();
}

function upstreamAuth(value: string | undefined): UpstreamAuth {
  if (value === undefined) return 'auto';
  if (value === 'auto' || value === 'bearer' || value === 'x-api-key') return value;
  throw new IsobudgetError('usage', `--upstream-auth must be auto, bearer or x-api-key, got '${value}'`);
}

function closedNote(key: { closed: string | undefined; overReservation: number }): string {
  if (key.closed === undefined) return '';
  if (key.closed === 'over_reservation') return ` (closed: over_reservation — billed ${key.overReservation} tokens beyond what its calls reserved)`;
  return ` (closed: ${key.closed})`;
}
