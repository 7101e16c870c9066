/**
 * Relays an upstream response to the client. A stream is passed through chunk by chunk —
 * every chunk is written the moment it comes, so its first byte reaches the client when
 * upstream sends it — and each chunk goes to the usage observer once it has left. Any other body
 * (a JSON reply, an error) is read whole, scrubbed and sent in one write.
 *
 * `finish` runs exactly once, after the last upstream byte and before the client's
 * response ends, so a call's ledger record exists before its client sees the end of it.
 */
import type { ClientRequest, IncomingMessage, ServerResponse } from 'node:http';
import { clientResponseHeaders } from '../forward-headers.js';
import type { Scrubber } from '../scrubber.js';
import { UpstreamFailure } from './upstream-request.js';

/** Largest buffered body (bytes): past it, the call is cut rather than held in memory. */
const MAX_BUFFERED_BODY = 64 * 1024 * 1024;

export interface RelayEnd {
  /** The upstream body arrived whole and the client was still there. */
  completed: boolean;
  /** Why not: `client closed`, `upstream stream cut`. */
  cut: string | undefined;
  /** The body, when the response was buffered (scrubbed). */
  body: Buffer | undefined;
  /** Time from `started` to the first body byte (ms). */
  ttfbMs: number | undefined;
}

export interface RelayOptions {
  upstream: { request: ClientRequest; response: IncomingMessage };
  client: ServerResponse;
  scrub: Scrubber;
  started: number;
  /** Called with each chunk of a passed-through stream; undefined buffers the body instead. */
  observe: ((chunk: Buffer) => void) | undefined;
  finish: (end: RelayEnd) => void;
}

export function relayResponse(options: RelayOptions): Promise<RelayEnd> {
  const { client, scrub, started, observe } = options;
  const { request, response } = options.upstream;
  const status = response.statusCode ?? 502;
  const buffered = observe === undefined;
  const chunks: Buffer[] = [];
  // A key cut in two by a chunk boundary is still caught: the stream scrubber holds a possible start back.
  const scrubStream = buffered ? undefined : scrub.stream();
  let kept = 0;
  let ttfbMs: number | undefined;
  let done = false;
  // Chunks relayed but not yet observed. Node sends a chunked write on the next tick (it corks
  // the socket until then), so usage is read in a tick queued after that one: the bytes leave
  // first, and reading message_start's JSON is not part of anyone's time to first byte.
  const unobserved: Buffer[] = [];
  let observing = false;
  const observeRelayed = (): void => {
    observing = false;
    for (const chunk of unobserved) observe?.(chunk);
    unobserved.length = 0;
  };

  return new Promise((resolve) => {
    const end = (result: Omit<RelayEnd, 'ttfbMs' | 'body'>): void => {
      if (done) return;
      done = true;
      observeRelayed();
      const body = buffered ? scrub.body(chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks)) : undefined;
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
        const rest = scrubStream?.end();
        client.end(rest !== undefined && rest.length > 0 ? rest : undefined);
      }
      resolve(outcome);
    };

    // The headers leave with the first chunk — one write fewer per stream, and the first body byte is not delayed.
    if (!buffered) client.writeHead(status, clientResponseHeaders(response.headers, scrub.text, true));
    response.on('data', (chunk: Buffer) => {
      if (done) return;
      ttfbMs ??= performance.now() - started;
      if (buffered) {
        kept += chunk.length;
        if (kept > MAX_BUFFERED_BODY) end({ completed: false, cut: `upstream body over ${MAX_BUFFERED_BODY} bytes` });
        else chunks.push(chunk);
        return;
      }
      // The client first, the bookkeeping after: parsing the chunk's usage must not delay it.
      const flowing = client.write(scrubStream?.push(chunk) ?? chunk);
      unobserved.push(chunk);
      if (!observing) {
        observing = true;
        process.nextTick(observeRelayed);
      }
      if (!flowing) response.pause();
    });
    client.on('drain', () => response.resume());
    response.on('end', () => end({ completed: true, cut: undefined }));
    response.on('error', (error) => end({ completed: false, cut: error instanceof UpstreamFailure ? error.message : 'upstream stream cut' }));
    response.on('close', () => end({ completed: false, cut: 'upstream stream cut' }));
    client.on('close', () => end({ completed: false, cut: 'client closed' }));
  });
}
