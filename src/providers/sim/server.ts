/**
 * `isobudget sim serve`: the simulator behind real HTTP (node:http only), speaking OpenAI
 * chat (with `n`), OpenAI responses and Anthropic messages. Tests and benchmarks use it to
 * exercise real clients; fault injection makes retry paths testable and replayable.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ChatMessage } from '../../core/messages.js';
import type { ToolDefinition } from '../spec.js';
import { billedPromptTokens, simulate, type SimRequest } from './engine.js';
import type { SimBilling } from './foreign-tokenizer.js';
import { anthropicCountTokensRoute, anthropicMessagesRoute } from './http/anthropic-messages-route.js';
import { createFaultPicker, FAULT_KINDS, type FaultKind, type FaultOptions } from './http/faults.js';
import { errorBody, isRecord, SimHttpError, type WireProtocol } from './http/http-errors.js';
import { flattenHeaders, readBody, sendJson, sendJsonText, sendSse, sleep } from './http/http-io.js';
import { modelsRoute } from './http/models-route.js';
import { openaiChatRoute } from './http/openai-chat-route.js';
import { openaiResponsesRoute } from './http/openai-responses-route.js';
import type { Route, RouteReply } from './http/route.js';

export interface SimServerOptions {
  /** Loopback by default. */
  host?: string;
  /** 0 picks a free port. */
  port?: number;
  seed?: number;
  /** Multiplies simulated latencies (default 0: answer at once). */
  latencyScale?: number;
  faults?: FaultOptions;
  /** Answer chat requests with n > 1 with a 400, like providers without native n. */
  rejectNativeN?: boolean;
  /** When set, requests must carry it as `Authorization: Bearer …` or `x-api-key`. */
  requireApiKey?: string;
  /** Largest accepted request body (bytes, default 8 MiB); larger gets 413. */
  maxBodyBytes?: number;
  /** How prompts are billed (`sim serve --profile`): o200k, or `foreign-tokenizer` (foreign-tokenizer.ts). */
  billing?: SimBilling;
}

export interface SimServerStats {
  requests: number;
  byPath: Record<string, number>;
  /** How often each fault was injected. */
  faults: Record<FaultKind, number>;
}

export interface SimServer {
  /** `http://127.0.0.1:PORT`, no trailing slash; OpenAI clients use `${url}/v1`. */
  url: string;
  port: number;
  stats: SimServerStats;
  /** Headers of the most recent requests, oldest first (bounded), for secret-forwarding tests. */
  lastHeaders(): Record<string, string>[];
  close(): Promise<void>;
}

const ROUTES: readonly Route[] = [openaiChatRoute, openaiResponsesRoute, anthropicMessagesRoute, anthropicCountTokensRoute, modelsRoute];
const HEADER_RING_SIZE = 100;
const DEFAULT_MAX_BODY_BYTES = 8 * 1024 * 1024;

export async function startSimServer(options: SimServerOptions = {}): Promise<SimServer> {
  const seed = options.seed ?? 0;
  const latencyScale = options.latencyScale ?? 0;
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const pickFault = createFaultPicker(options.faults);
  const stats: SimServerStats = { requests: 0, byPath: {}, faults: Object.fromEntries(FAULT_KINDS.map((k) => [k, 0])) as Record<FaultKind, number> };
  const headerRing: Record<string, string>[] = [];
  let idCounter = 0;
  const nextId = (prefix: string) => `${prefix}sim${(idCounter += 1).toString(36).padStart(8, '0')}`;
  const billing = options.billing ?? 'o200k';
  const run = (request: SimRequest) => simulate(request, { seed, billing });
  const countPrompt = (messages: readonly ChatMessage[], tools: readonly ToolDefinition[]) => billedPromptTokens(messages, tools, billing);

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const pathname = (request.url ?? '/').split('?')[0] ?? '/';
    stats.requests += 1;
    stats.byPath[pathname] = (stats.byPath[pathname] ?? 0) + 1;
    headerRing.push(flattenHeaders(request.headers));
    if (headerRing.length > HEADER_RING_SIZE) headerRing.shift();

    const protocol: WireProtocol = pathname.startsWith('/v1/messages') ? 'anthropic' : 'openai';
    const fail = (error: SimHttpError, headers: Record<string, string> = {}) => sendJson(response, error.status, errorBody(protocol, error), headers);
    const route = ROUTES.find((r) => r.path === pathname);
    if (!route) return fail(new SimHttpError(404, `Invalid URL (${request.method ?? 'GET'} ${pathname})`, { code: 'unknown_url' }));
    if (route.method !== request.method) return fail(new SimHttpError(405, `Method ${request.method ?? ''} not allowed on ${pathname}`), { allow: route.method });
    if (options.requireApiKey !== undefined && !authorized(request, options.requireApiKey)) {
      return fail(new SimHttpError(401, protocol === 'anthropic' ? 'invalid x-api-key' : 'Incorrect API key provided.', { code: 'invalid_api_key' }));
    }

    // Drawn synchronously on arrival, so the fault sequence follows arrival order.
    const fault = route.generates ? pickFault() : undefined;
    if (fault) stats.faults[fault] += 1;

    let body: Record<string, unknown> = {};
    if (route.method === 'POST') {
      const read = await readBody(request, maxBodyBytes);
      if (read.kind === 'too_large') return fail(new SimHttpError(413, `Request body of ${read.bytes} bytes exceeds the ${maxBodyBytes}-byte limit`, { code: 'request_too_large' }));
      let parsed: unknown;
      try {
        parsed = JSON.parse(read.body.toString('utf8'));
      } catch {
        return fail(new SimHttpError(400, 'We could not parse the JSON body of your request.', { code: 'invalid_json' }));
      }
      if (!isRecord(parsed)) return fail(new SimHttpError(400, 'The request body must be a JSON object.', { code: 'invalid_json' }));
      body = parsed;
    }

    if (fault === 'reset') {
      request.socket.destroy();
      return;
    }
    if (fault === 'http429') {
      const retryAfter = String(options.faults?.retryAfterSeconds ?? 1);
      return fail(new SimHttpError(429, 'Rate limit reached (injected fault).', { code: 'rate_limit_exceeded' }), { 'retry-after': retryAfter });
    }
    if (fault === 'http500') return fail(new SimHttpError(500, 'The server had an error (injected fault).'));

    let reply: RouteReply;
    try {
      reply = route.handle({ body, simulate: run, countPrompt, includeUsage: fault !== 'missingUsage', rejectNativeN: options.rejectNativeN ?? false, nextId });
    } catch (error) {
      if (error instanceof SimHttpError) return fail(error);
      return fail(new SimHttpError(500, `sim: ${error instanceof Error ? error.message : String(error)}`));
    }
    const delayMs = reply.latencyMs * latencyScale + (fault === 'slow' ? options.faults?.slowMs ?? 2000 : 0);
    const headers: Record<string, string> = protocol === 'anthropic' ? { 'request-id': nextId('req_') } : { 'x-request-id': nextId('req_') };
    // Says which fault was injected, so a test harness can tell "slow on purpose" from "slow
    // because the machine is busy".
    if (fault !== undefined) headers['x-sim-fault'] = fault;
    // The delay it is about to apply (a stream's first event comes after half of it): a load
    // test subtracts it to see the time a proxy or the machine added, without the spread of
    // simulated latencies across prompts in the way.
    headers['x-sim-delay-ms'] = delayMs.toFixed(3);
    if (reply.kind === 'sse') return sendSse(response, reply.events, delayMs, headers, fault === 'invalidJson');
    await sleep(delayMs);
    const text = JSON.stringify(reply.body);
    // A 200 whose body stops mid-object: what a proxy cutting a response looks like.
    sendJsonText(response, reply.status, fault === 'invalidJson' ? text.slice(0, Math.max(1, Math.floor(text.length / 2))) : text, headers);
  }

  const server = createServer({ keepAlive: true }, (request, response) => {
    handle(request, response).catch(() => {
      // The client went away mid-request (or a write failed): nothing left to answer.
      if (!response.headersSent && !response.destroyed) sendJson(response, 500, { error: { message: 'sim: internal error', type: 'server_error', param: null, code: null } });
      else response.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const hostForUrl = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${hostForUrl}:${address.port}`,
    port: address.port,
    stats,
    lastHeaders: () => headerRing.map((h) => ({ ...h })),
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}

function authorized(request: IncomingMessage, key: string): boolean {
  const bearer = /^Bearer\s+(.+)$/i.exec(request.headers.authorization ?? '')?.[1]?.trim();
  const apiKey = request.headers['x-api-key'];
  return bearer === key || apiKey === key;
}
