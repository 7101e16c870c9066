/**
 * Socket-level edges of the gateway's HTTP server: a declared body too large is refused
 * before a byte of it is read, and a port that cannot be bound is a clear user error.
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { IsobudgetError } from '../core/errors.js';
import { errorReply } from './error-reply.js';
import type { Family } from './routes.js';

/** How long the gateway keeps reading (and discarding) an upload it refused, so the client reads the 413 before the socket closes (ms). */
const LINGER_MS = 2_000;

/** The request's `Content-Length`, or undefined when it sends none (chunked) or an unreadable one. */
export function declaredLength(request: IncomingMessage): number | undefined {
  const header = request.headers['content-length'];
  if (header === undefined || !/^\d+$/.test(header)) return undefined;
  return Number(header);
}

/**
 * A 413 at once, whatever the client still means to send. The connection closes after it, but
 * only after a moment of reading and discarding what keeps coming: closing a socket with
 * unread data resets it, and a reset can destroy the 413 before the client has read it.
 */
export function refuseLargeBody(request: IncomingMessage, response: ServerResponse, family: Family, declared: number, limit: number): void {
  const socket = request.socket;
  // Node ends a `connection: close` response with destroySoon(); this one lingers first.
  socket.destroySoon = function lingeringClose(this: typeof socket): void {
    if (this.writable) this.end();
    const timer = setTimeout(() => this.destroy(), LINGER_MS);
    timer.unref();
    this.once('close', () => clearTimeout(timer));
  };
  request.resume();
  const reply = errorReply(family, 413, `isobudget gateway: the request declares a body of ${declared} bytes, over the ${limit}-byte limit (--max-body-mb); it was not read`, { code: 'request_too_large', headers: { connection: 'close' } });
  response.writeHead(reply.status, { ...reply.headers, 'content-length': String(Buffer.byteLength(reply.body)) });
  response.end(reply.body);
}

/** Listens, or says in one line why it cannot (a port in use, a privileged port, an address not here). */
export function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const failed = (error: NodeJS.ErrnoException): void => reject(listenError(error, port, host));
    server.once('error', failed);
    server.listen(port, host, () => {
      server.off('error', failed);
      resolve();
    });
  });
}

function listenError(error: NodeJS.ErrnoException, port: number, host: string): Error {
  const where = `${host.includes(':') ? `[${host}]` : host}:${port}`;
  switch (error.code) {
    case 'EADDRINUSE':
      return new IsobudgetError('usage', `gateway: ${where} is already in use by another process; pick another port with --port, or stop what listens there`);
    case 'EACCES':
      return new IsobudgetError('usage', `gateway: no permission to listen on ${where} (ports below 1024 need privileges); pick another port with --port`);
    case 'EADDRNOTAVAIL':
      return new IsobudgetError('usage', `gateway: ${host} is not an address of this machine; pass one of its addresses with --host`);
    default:
      return error;
  }
}
