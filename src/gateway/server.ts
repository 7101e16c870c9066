/**
 * `isobudget gateway`: a local HTTP gateway in front of an upstream base URL (DESIGN §8).
 * Serves `/v1/messages` (+ `?beta=true`, `count_tokens`), `/v1/chat/completions`,
 * `/v1/responses` and `GET /v1/models` to clients holding a virtual key; model calls are
 * budgeted, clamped, passed through unbuffered and recorded.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { IsobudgetError } from '../core/errors.js';
import { readBody } from '../providers/sim/http/http-io.js';
import { checkBind } from './bind-policy.js';
import { accessTokenMatches, presentedKeys } from './client-credentials.js';
import { errorReply, unauthorizedReply, type GatewayReply } from './error-reply.js';
import type { UpstreamAuth } from './forward-headers.js';
import type { GatewayContext } from './gateway-context.js';
import { InFlight } from './in-flight.js';
import type { KeyStore } from './keys/key-store.js';
import type { VirtualKey } from './keys/virtual-key.js';
import type { SpendJournal } from './durable/spend-journal.js';
import type { CallSink } from './ledger/gateway-record.js';
import { declaredLength, listen, refuseLargeBody } from './server-io.js';
import { forwardCall } from './proxy/forward-call.js';
import { passThrough } from './proxy/pass-through.js';
import { sendReply } from './proxy/send-reply.js';
import { closeAgents, createAgents, DEFAULT_TIMEOUTS, type UpstreamTimeouts } from './proxy/upstream-request.js';
import { familyOf, findRoute } from './routes.js';
import { makeScrubber } from './scrubber.js';
import { embeddedStore, type Budgets, type GatewayStore, type KeyLookup } from './store/gateway-store.js';
import { displayUrl, upstreamTarget } from './upstream-url.js';

export interface GatewayOptions {
  /** Upstream base URL, e.g. https://api.anthropic.com or http://127.0.0.1:8787/v1. */
  upstream: string;
  /** The gateway's upstream credential (a value; the CLI reads it from the env var it is told). */
  upstreamKey?: string;
  upstreamAuth?: UpstreamAuth;
  /** Default 127.0.0.1; anything else needs allowRemote and accessToken. */
  host?: string;
  /** 0 picks a free port. */
  port?: number;
  allowRemote?: boolean;
  /** Required as `x-isobudget-access-token` on every request when set. */
  accessToken?: string;
  /** Embedded storage: the SQLite key store (with `sink`, and `journal` for a data dir). Not with `store`. */
  keys?: KeyStore;
  /** Where call records go. With `journal`, it must write through the journal's write queue. */
  sink?: CallSink;
  /** Any other storage (Postgres replicas): keys, budgets and the call book in one. */
  store?: GatewayStore;
  /** Durable spend (a data dir): reservations journaled before a call leaves; undefined keeps spend in memory. */
  journal?: SpendJournal;
  /** Largest request body (bytes, default 32 MiB); larger gets a clean 413, before it is read when declared. */
  maxBodyBytes?: number;
  /** Upstream connect / first byte / idle limits (ms); DEFAULT_TIMEOUTS for what is not given. */
  timeouts?: Partial<UpstreamTimeouts>;
  /** Longest a call waits for in-flight reservations of its key to settle (ms, default 10 min). */
  budgetWaitMs?: number;
  /** The upstream bills with our tokenizer (the simulator). */
  exactPrompt?: boolean;
  log?: (line: string) => void;
}

export interface Gateway {
  /** `http://127.0.0.1:PORT`: the Anthropic base URL; OpenAI clients use `${url}/v1`. */
  url: string;
  port: number;
  inFlight: InFlight;
  budgets: Budgets;
  close(): Promise<void>;
}

export const DEFAULT_MAX_BODY_BYTES = 32 * 1024 * 1024;
/** How long `close` waits for calls in flight (ms). */
const CLOSE_GRACE_MS = 2_000;

export async function startGateway(options: GatewayOptions): Promise<Gateway> {
  const host = options.host ?? '127.0.0.1';
  checkBind({ host, allowRemote: options.allowRemote === true, accessToken: options.accessToken });
  if (!/^https?:\/\//.test(options.upstream)) {
    throw new IsobudgetError('usage', `--upstream must be an http(s) URL, got '${options.upstream}'`, { hint: 'e.g. --upstream https://api.anthropic.com' });
  }
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const store = options.store ?? embedded(options);
  const context: GatewayContext = {
    upstream: options.upstream,
    target: upstreamTarget(options.upstream),
    upstreamDisplay: displayUrl(options.upstream),
    upstreamKey: options.upstreamKey,
    upstreamAuth: options.upstreamAuth ?? 'auto',
    agents: createAgents(),
    keys: store.keys,
    budgets: store.budgets,
    book: store.book,
    scrub: makeScrubber(options.upstreamKey),
    inFlight: new InFlight(),
    timeouts: { ...DEFAULT_TIMEOUTS, ...options.timeouts },
    exactPrompt: options.exactPrompt === true,
    log: options.log,
  };

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const started = performance.now();
    const pathname = (request.url ?? '/').split('?')[0] ?? '/';
    const family = familyOf(pathname, request.headers);
    const reply = (value: GatewayReply): void => sendReply(response, value, request.method === 'HEAD');
    if (options.accessToken !== undefined && !accessTokenMatches(request.headers, options.accessToken)) {
      return reply(unauthorizedReply(family, 'missing or wrong x-isobudget-access-token'));
    }
    const route = findRoute(pathname);
    if (!route) return reply(errorReply(family, 404, `isobudget gateway: no route for ${request.method ?? ''} ${pathname}`, { code: 'unknown_url' }));
    if (route.method !== request.method) return reply(errorReply(family, 405, `isobudget gateway: ${request.method ?? ''} not allowed on ${pathname}`, { headers: { allow: route.method } }));
    const found = authenticate(context.keys, request);
    const key = found instanceof Promise ? await found : found;
    if (typeof key === 'string') return reply(unauthorizedReply(family, key));
    if (route.method === 'GET') return passThrough(context, request, response, family, undefined);

    const declared = declaredLength(request);
    if (declared !== undefined && declared > maxBodyBytes) return refuseLargeBody(request, response, family, declared, maxBodyBytes);
    const read = await readBody(request, maxBodyBytes);
    if (read.kind === 'too_large') {
      return reply(errorReply(family, 413, `isobudget gateway: request body of ${read.bytes} bytes exceeds the ${maxBodyBytes}-byte limit`, { code: 'request_too_large', headers: { connection: 'close' } }));
    }
    if (route.protocol === undefined) return passThrough(context, request, response, family, read.body);
    let body: unknown;
    const text = read.body.toString('utf8');
    try {
      body = JSON.parse(text);
    } catch {
      return reply(errorReply(family, 400, 'isobudget gateway: the request body is not valid JSON', { code: 'invalid_json' }));
    }
    if (typeof body !== 'object' || body === null || Array.isArray(body)) {
      return reply(errorReply(family, 400, 'isobudget gateway: the request body must be a JSON object', { code: 'invalid_json' }));
    }
    // Returned, not awaited: this frame (the body, raw and parsed) is done with once the call is on its way.
    return forwardCall(context, { request, response, protocol: route.protocol, family, key, body: body as Record<string, unknown>, raw: read.body, text, started });
  }

  const serve = (request: IncomingMessage, response: ServerResponse): void => {
    handle(request, response).catch((error: unknown) => {
      // A client that went away mid-body, or a bug: answer if we still can, never with details.
      // Storage that cannot answer (a database out of reach) is a 503 the client may retry.
      const trouble = context.book.trouble();
      if (trouble === undefined) context.log?.(`internal error on ${request.method ?? ''} ${request.url ?? ''}: ${context.scrub.text(error instanceof Error ? error.message : String(error))}`);
      const family = familyOf((request.url ?? '/').split('?')[0] ?? '/', request.headers);
      const reply = trouble === undefined ? errorReply('openai', 500, 'isobudget gateway: internal error') : errorReply(family, 503, trouble.message, { code: 'gateway_storage_unavailable', headers: { 'retry-after': '5' } });
      if (!response.headersSent && !response.destroyed) sendReply(response, reply);
      else response.destroy();
    });
  };
  const server = createServer({ keepAlive: true, noDelay: true }, serve);
  // `Expect: 100-continue` (curl sends it for large bodies): a body declared too large is refused before the client sends it.
  server.on('checkContinue', (request: IncomingMessage, response: ServerResponse) => {
    const declared = declaredLength(request);
    if (declared === undefined || declared <= maxBodyBytes) response.writeContinue();
    serve(request, response);
  });
  // Codex tries a WebSocket upgrade on /v1/responses first and falls back to HTTP on a 404.
  server.on('upgrade', (_request, socket) => {
    const body = JSON.stringify({ error: { message: 'isobudget gateway: WebSocket is not supported; use HTTP', type: 'invalid_request_error', param: null, code: 'unknown_url' } });
    socket.end(`HTTP/1.1 404 Not Found\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`);
  });
  await listen(server, options.port ?? 0, host);
  const address = server.address() as AddressInfo;
  const hostForUrl = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${hostForUrl}:${address.port}`,
    port: address.port,
    inFlight: context.inFlight,
    budgets: context.budgets,
    // Stop accepting, give calls in flight a moment to finish (and be recorded), then cut the rest.
    close: async () => {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const deadline = Date.now() + CLOSE_GRACE_MS; context.inFlight.count() > 0 && Date.now() < deadline; ) await new Promise((resolve) => setTimeout(resolve, 20));
      server.closeAllConnections();
      closeAgents(context.agents);
      await closed;
      await store.close();
    },
  };
}

function embedded(options: GatewayOptions): GatewayStore {
  if (options.keys === undefined || options.sink === undefined) throw new Error('startGateway: pass keys and sink, or a store');
  return embeddedStore({ keys: options.keys, sink: options.sink, journal: options.journal, budgetWaitMs: options.budgetWaitMs });
}

const NO_KEY = 'no virtual key: send one as Authorization: Bearer or x-api-key (mint it with `isobudget gateway keys create`)';

/** The virtual key a request presents, or why it is refused. Never echoes what was presented. */
function authenticate(keys: KeyLookup, request: IncomingMessage): VirtualKey | string | Promise<VirtualKey | string> {
  const presented = presentedKeys(request.headers);
  if (presented.length === 0) return NO_KEY;
  const judge = (key: VirtualKey | undefined): VirtualKey | string | undefined => (key === undefined ? undefined : key.revoked ? `virtual key ${key.id} is revoked` : key);
  for (const [i, secret] of presented.entries()) {
    const found = keys.verify(secret);
    if (found instanceof Promise) return verifyRest(keys, presented.slice(i), judge);
    const verdict = judge(found);
    if (verdict !== undefined) return verdict;
  }
  return 'unknown virtual key';
}

async function verifyRest(keys: KeyLookup, presented: string[], judge: (key: VirtualKey | undefined) => VirtualKey | string | undefined): Promise<VirtualKey | string> {
  for (const secret of presented) {
    const verdict = judge(await keys.verify(secret));
    if (verdict !== undefined) return verdict;
  }
  return 'unknown virtual key';
}
