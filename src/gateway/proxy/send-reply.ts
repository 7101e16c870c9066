import type { ServerResponse } from 'node:http';
import type { GatewayReply } from '../error-reply.js';

/** Writes a reply the gateway made itself (errors, denials). */
export function sendReply(response: ServerResponse, reply: GatewayReply, headOnly = false): void {
  if (response.headersSent || response.destroyed) return;
  response.writeHead(reply.status, { ...reply.headers, 'content-length': String(Buffer.byteLength(reply.body)) });
  response.end(headOnly ? undefined : reply.body);
}
