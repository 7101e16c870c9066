/** Socket-level helpers for the sim server: bounded body reading, JSON and SSE writing. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { SseEvent } from './route.js';

export type BodyResult = { kind: 'ok'; body: Buffer } | { kind: 'too_large'; bytes: number };

/**
 * Reads the body up to `limit` bytes. Past the limit it keeps draining (so the client gets
 * the 413 instead of a broken pipe) but stores nothing; past 16× the limit it gives up.
 */
export function readBody(request: IncomingMessage, limit: number): Promise<BodyResult> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let bytes = 0;
    request.on('data', (chunk: Buffer) => {
      bytes += chunk.length;
      if (bytes <= limit) chunks.push(chunk);
      else if (bytes > limit * 16) request.destroy();
    });
    request.on('end', () => resolve(bytes <= limit ? { kind: 'ok', body: Buffer.concat(chunks, bytes) } : { kind: 'too_large', bytes }));
    request.on('error', reject);
    request.on('close', () => {
      if (!request.complete) reject(new Error('client closed the request'));
    });
  });
}

export function sendJsonText(response: ServerResponse, status: number, text: string, headers: Record<string, string> = {}): void {
  if (response.destroyed) return;
  response.writeHead(status, {
    'content-type': 'application/json',
    'content-length': String(Buffer.byteLength(text)),
    ...headers,
  });
  response.end(text);
}

export function sendJson(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  sendJsonText(response, status, JSON.stringify(body), headers);
}

export function formatSse(event: SseEvent): string {
  return `${event.event === undefined ? '' : `event: ${event.event}\n`}data: ${event.data}\n\n`;
}

export function sleep(ms: number): Promise<void> {
  return ms > 0 ? new Promise((resolve) => setTimeout(resolve, ms)) : Promise.resolve();
}

/**
 * Writes an event stream. With a delay, half of it passes before the first event (time to
 * first token) and half before the rest, so clients see a stream arrive in pieces.
 * `broken` cuts the stream after the first event with an unparseable data line.
 */
export async function sendSse(response: ServerResponse, events: readonly SseEvent[], delayMs: number, headers: Record<string, string>, broken: boolean): Promise<void> {
  response.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', connection: 'keep-alive', ...headers });
  response.flushHeaders();
  await sleep(delayMs / 2);
  const [first, ...rest] = events;
  if (response.destroyed) return;
  if (first) response.write(formatSse(first));
  if (broken) {
    response.end('data: {"truncated": \n\n');
    return;
  }
  await sleep(delayMs / 2);
  if (response.destroyed) return;
  response.end(rest.map(formatSse).join(''));
}

/** Header values as one string each (repeated headers joined with ", "). */
export function flattenHeaders(headers: IncomingMessage['headers']): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) flat[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return flat;
}
