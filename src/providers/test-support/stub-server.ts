/**
 * A tiny loopback HTTP server for provider tests. Each request is answered by a handler that
 * returns a canned reply or a precise fault (exact status and Retry-After, a body that is not
 * JSON, a connection reset, a response slower than the deadline, a body that stalls after the
 * headers). The simulator covers realistic traffic; this covers the edges exactly.
 */
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  method: string;
  /** Path and query, e.g. `/v1/chat/completions`. */
  path: string;
  headers: IncomingHttpHeaders;
  /** Parsed JSON body, or the raw text when it is not JSON. */
  body: unknown;
}

export type StubReply =
  | { kind: 'json'; status?: number; headers?: Record<string, string>; body: unknown; delayMs?: number }
  | { kind: 'text'; status?: number; contentType?: string; headers?: Record<string, string>; text: string; delayMs?: number }
  /** Destroy the socket without answering (a reset before any byte). */
  | { kind: 'reset' }
  /** Send the headers and part of the body, then stall forever. */
  | { kind: 'stall-body'; status?: number }
  /** Send the headers and part of the body, then destroy the socket. */
  | { kind: 'cut-body' };

export type StubHandler = (request: RecordedRequest) => StubReply | Promise<StubReply>;

export interface StubServer {
  /** `http://127.0.0.1:PORT`, no trailing slash. */
  url: string;
  requests: RecordedRequest[];
  /** Replace the handler between tests. */
  setHandler(handler: StubHandler): void;
  close(): Promise<void>;
}

export async function startStubServer(initial: StubHandler): Promise<StubServer> {
  let handler = initial;
  const requests: RecordedRequest[] = [];
  const timers = new Set<NodeJS.Timeout>();

  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const recorded: RecordedRequest = {
        method: request.method ?? 'GET',
        path: request.url ?? '/',
        headers: request.headers,
        body: parseJson(text),
      };
      requests.push(recorded);
      void Promise.resolve(handler(recorded)).then((reply) => answer(reply, response));
    });
  });

  function later(ms: number, action: () => void): void {
    const timer = setTimeout(() => {
      timers.delete(timer);
      action();
    }, ms);
    timers.add(timer);
  }

  function answer(reply: StubReply, response: ServerResponse): void {
    switch (reply.kind) {
      case 'reset':
        response.socket?.destroy();
        return;
      case 'stall-body':
        response.writeHead(reply.status ?? 200, { 'content-type': 'application/json' });
        response.write('{"id":"stalled",');
        return;
      case 'cut-body':
        response.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000' });
        response.write('{"id":"cut",');
        later(20, () => response.socket?.destroy());
        return;
      case 'json':
      case 'text': {
        const body = reply.kind === 'json' ? JSON.stringify(reply.body) : reply.text;
        const contentType = reply.kind === 'json' ? 'application/json' : (reply.contentType ?? 'application/json');
        const send = (): void => {
          response.writeHead(reply.status ?? 200, { 'content-type': contentType, ...reply.headers });
          response.end(body);
        };
        if (reply.delayMs !== undefined && reply.delayMs > 0) later(reply.delayMs, send);
        else send();
      }
    }
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    setHandler(next) {
      handler = next;
    },
    async close() {
      for (const timer of timers) clearTimeout(timer);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function parseJson(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}
