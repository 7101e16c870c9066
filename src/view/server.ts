/**
 * The viewer's HTTP server (node:http, no framework). GET renders a screen; the only write is
 * POST /api/review/<id>, which needs the per-process token the review page carries, a JSON
 * body (so a cross-site form cannot send it) and, when the browser names one, our own
 * origin. Requests naming another Host are refused (no DNS rebinding). A screen that fails to
 * render answers 500 with the reason; the server keeps serving.
 */
import { timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { IsobudgetError } from '../core/errors.js';
import { escapeHtml as h } from '../report/html/escape.js';
import { contentSecurityPolicy, renderViewPage } from './layout.js';
import { liveLinks } from './links.js';
import type { Page, ViewApp } from './view-app.js';
import type { RunSource } from './run-source.js';

export interface ViewServerOptions {
  app: ViewApp;
  runs: RunSource;
  host: string;
  port: number;
  /** Review decisions need it; undefined: the page is read-only. */
  token: string | undefined;
  /** Read runs and draw their charts before the first visit (default on). */
  warm?: boolean;
  /** How often live runs are checked for progress (ms). */
  liveIntervalMs?: number;
}

export interface ViewServer {
  url: string;
  close(): Promise<void>;
}

const MAX_BODY_BYTES = 64 * 1024;

function send(response: ServerResponse, status: number, type: string, body: string): void {
  response.writeHead(status, {
    'content-type': type,
    'content-security-policy': contentSecurityPolicy('live', true),
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    'x-frame-options': 'DENY',
    'cache-control': 'no-store',
  });
  response.end(body);
}

const json = (response: ServerResponse, status: number, value: unknown): void => send(response, status, 'application/json; charset=utf-8', JSON.stringify(value));

function sameToken(given: string | undefined, token: string): boolean {
  if (given === undefined) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let size = 0;
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        reject(new IsobudgetError('usage', 'request body too large'));
        request.destroy();
        return;
      }
      chunks.push(chunk);
    });
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}

export function startViewServer(options: ViewServerOptions): Promise<ViewServer> {
  const { app } = options;
  const sockets = new Set<ServerResponse>();
  let allowedHosts = new Set<string>();

  const route = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const host = request.headers.host ?? '';
    if (!allowedHosts.has(host.toLowerCase())) {
      send(response, 421, 'text/plain; charset=utf-8', 'this viewer answers only to the address it listens on\n');
      return;
    }
    const url = new URL(request.url ?? '/', `http://${host}`);
    let parts: string[];
    try {
      parts = url.pathname.split('/').filter(Boolean).map((p) => decodeURIComponent(p));
    } catch {
      send(response, 400, 'text/plain; charset=utf-8', 'malformed URL\n');
      return;
    }
    const params = url.searchParams;
    if (request.method === 'POST' && parts[0] === 'api' && parts[1] === 'review' && parts.length === 3) {
      await decide(request, response, parts[2] as string, host);
      return;
    }
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      json(response, 405, { error: 'read-only: only review decisions are posted' });
      return;
    }
    await options.runs.beforeRead().catch(() => undefined);
    if (parts[0] === 'api' && parts[1] === 'events') {
      events(response);
      return;
    }
    if (parts[0] === 'runs' && parts.length === 3 && parts[2] === 'results.csv') {
      const csv = app.csv(parts[1] as string);
      if (csv === undefined) return send(response, 404, 'text/plain; charset=utf-8', 'no readable run\n');
      response.writeHead(200, { 'content-type': 'text/csv; charset=utf-8', 'content-disposition': `attachment; filename="${(parts[1] as string).replace(/[^A-Za-z0-9._-]/g, '_')}-results.csv"`, 'x-content-type-options': 'nosniff', 'cache-control': 'no-store' });
      response.end(csv);
      return;
    }
    const links = liveLinks;
    let page: Page;
    if (parts.length === 0) page = app.runsScreen(params, links);
    else if (parts[0] === 'runs' && parts.length === 2) page = await app.runScreen(parts[1] as string, params, links, params.get('fragment') === 'grid');
    else if (parts[0] === 'runs' && parts.length === 4 && parts[2] === 'cases') page = app.caseScreen(parts[1] as string, parts[3] as string, params.get('split') ?? 'val', links);
    else if (parts[0] === 'compare' && parts.length === 1) page = app.compareScreen(params, links);
    else if (parts[0] === 'review' && parts.length === 1) page = await app.reviewScreen(links, options.token);
    else if (parts[0] === 'memory' && parts.length <= 2) page = await app.memoryScreen(parts[1], links);
    else if (parts[0] === 'evolve' && parts.length <= 2) page = await app.evolveScreen(parts[1], links);
    else if (parts[0] === 'spend' && parts.length === 1) page = app.spendScreen(links);
    else page = app.notFound(links, `nothing at ${url.pathname}`);
    send(response, page.status, 'text/html; charset=utf-8', page.html);
  };

  const decide = async (request: IncomingMessage, response: ServerResponse, reviewId: string, host: string): Promise<void> => {
    if (options.token === undefined) return json(response, 403, { error: 'this viewer is read-only' });
    const given = request.headers['x-isobudget-token'];
    if (!sameToken(typeof given === 'string' ? given : undefined, options.token)) return json(response, 403, { error: 'missing or wrong review token: reload the review page' });
    const origin = request.headers.origin;
    if (origin !== undefined && origin !== `http://${host}`) return json(response, 403, { error: 'cross-origin request refused' });
    if (!(request.headers['content-type'] ?? '').startsWith('application/json')) return json(response, 415, { error: 'send JSON' });
    let body: unknown;
    try {
      body = JSON.parse(await readBody(request));
    } catch {
      return json(response, 400, { error: 'the body is not JSON' });
    }
    const input = body as { decision?: unknown; reviewer?: unknown; note?: unknown };
    if (input.decision !== 'approve' && input.decision !== 'reject') return json(response, 400, { error: 'decision must be approve or reject' });
    if (typeof input.reviewer !== 'string' || input.reviewer.trim() === '' || input.reviewer.length > 120) return json(response, 400, { error: 'a reviewer name (1–120 characters) is required' });
    if (input.note !== null && input.note !== undefined && (typeof input.note !== 'string' || input.note.length > 4000)) return json(response, 400, { error: 'note must be text of at most 4,000 characters' });
    try {
      const message = await app.decide(reviewId, input.decision, input.reviewer.trim(), typeof input.note === 'string' && input.note.trim() !== '' ? input.note.trim() : null);
      json(response, 200, { message });
    } catch (error) {
      if (error instanceof IsobudgetError) return json(response, error.code === 'not_found' ? 404 : 409, { error: error.message });
      throw error;
    }
  };

  let last = '';
  const events = (response: ServerResponse): void => {
    response.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' });
    response.write(`retry: 2000\ndata: ${snapshot()}\n\n`);
    sockets.add(response);
    response.on('close', () => sockets.delete(response));
  };
  const snapshot = (): string => JSON.stringify({ runs: options.runs.list().map((r) => ({ id: r.id, status: r.status, progress: r.progress })) });
  const timer = setInterval(() => {
    if (sockets.size === 0) return;
    let now: string;
    try {
      now = snapshot();
    } catch {
      return;
    }
    if (now === last) return;
    last = now;
    for (const socket of sockets) socket.write(`data: ${now}\n\n`);
  }, options.liveIntervalMs ?? 1000);
  timer.unref();

  const server = createServer((request, response) => {
    route(request, response).catch((error: unknown) => {
      const message = error instanceof Error ? error.message : String(error);
      if (!response.headersSent) send(response, 500, 'text/html; charset=utf-8', renderViewPage({ title: 'error', screen: 'runs', body: `<h1>This screen could not be shown</h1><p class="flag bad">${h(message)}</p>`, links: liveLinks }));
      else response.end();
    });
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      const address = server.address() as AddressInfo;
      const shown = address.family === 'IPv6' ? `[${address.address}]` : address.address;
      allowedHosts = new Set([`${shown}:${address.port}`, `localhost:${address.port}`, `127.0.0.1:${address.port}`, `[::1]:${address.port}`, `${options.host}:${address.port}`].map((x) => x.toLowerCase()));
      const warming = new AbortController();
      if (options.warm !== false) void app.warm(warming.signal).catch(() => undefined);
      resolve({
        url: `http://${shown}:${address.port}`,
        close: () =>
          new Promise<void>((done) => {
            warming.abort();
            clearInterval(timer);
            for (const socket of sockets) socket.end();
            server.close(() => done());
            server.closeAllConnections();
          }),
      });
    });
  });
}
