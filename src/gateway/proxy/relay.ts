/**
 * Relays an upstream response to the client as it arrives. A success is passed through
 * chunk by chunk — every chunk is written the moment it comes, so a stream's first byte
 * reaches the client when upstream sends it — and a copy of each chunk goes to the usage
 * observer. An error response is read whole (it is small), scrubbed and then sent.
 *
 * `finish` runs exactly once, after the last upstream byte and before the client's
 * response ends, so a call's ledger record exists before its client sees the end of it.
 */
import type { ClientRequest, IncomingMessage, ServerResponse } from 'node:http';
import { clientResponseHeaders } from '../forward-headers.js';
import type { Scrubber } from '../scrubber.js';

/** Largest error body kept (bytes); the rest is dropped. */
const MAX_ERROR_BODY = 1024 * 1024;

export interface RelayEnd {
  /** The upstream body arrived whole and the client was still there. */
  completed: boolean;
  /** Why not: `client closed`, `upstream stream cut`. */
  cut: string | undefined;
  /** The error body, when the response was buffered. */
  body: Buffer | undefined;
  /** Time from `started` to the first body byte (ms). */
  ttfbMs: number | undefined;
}

export interface RelayOptions {
  upstream: { request: ClientRequest; response: IncomingMessage };
  client: ServerResponse;
  scrub: Scrubber;
  started: number;
  /** Called with each chunk of a passed-through body; undefined buffers the body instead. */
  observe: ((chunk: Buffer) => void) | undefined;
  finish: (end: RelayEnd) => void;
}

export function relayResponse(options: RelayOptions): Promise<RelayEnd> {
  const { client, scrub, started, observe } = options;
  const { request, response } = options.upstream;
  const status = response.statusCode ?? 502;
  const buffered = observe === undefined;
  const chunks: Buffer[] = [];
  let kept = 0;
  let ttfbMs: number | undefined;
  let done = false;

  return new Promise((resolve) => {
    const end = (result: Omit<RelayEnd, 'ttfbMs' | 'body'>): void => {
      if (done) return;
      done = true;
      const body = buffered ? Buffer.from(scrub.text(Buffer.concat(chunks).toString('utf8'))) : undefined;
      const outcome: RelayEnd = { ...result, body, ttfbMs };
      options.finish(outcome);
      if (!result.completed) {
        request.destroy();
        client.destroy();
      } else if (buffered) {
        const headers = clientResponseHeaders(response.headers, scrub.text, false);
        client.writeHead(status, { ...headers, 'content-length': String(body?.length ?? 0) });
        client.end(body);
      } else {
        client.end();
      }
      resolve(outcome);
    };

    if (!buffered) {
      client.writeHead(status, clientResponseHeaders(response.headers, scrub.text, true));
      client.flushHeaders();
    }
    response.on('data', (chunk: Buffer) => {
      ttfbMs ??= performance.now() - started;
      if (buffered) {
        if (kept < MAX_ERROR_BODY) chunks.push(chunk.subarray(0, MAX_ERROR_BODY - kept));
        kept += chunk.length;
        return;
      }
      observe(chunk);
      if (!client.write(scrub.chunk(chunk))) response.pause();
    });
    client.on('drain', () => response.resume());
    response.on('end', () => end({ completed: true, cut: undefined }));
    response.on('error', () => end({ completed: false, cut: 'upstream stream cut' }));
    response.on('close', () => end({ completed: false, cut: 'upstream stream cut' }));
    client.on('close', () => end({ completed: false, cut: 'client closed' }));
  });
}
