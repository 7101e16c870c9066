/**
 * Relays an upstream response to the client. A stream is passed through chunk by chunk —
 * every chunk is written the moment it comes, so its first byte reaches the client when
 * upstream sends it — and each chunk goes to the usage observer once it has left. Any other body
 * (a JSON reply, an error) is read whole, scrubbed and sent in one write.
 *
 * A compressed body (the gateway asks for none) is decompressed first, so the scrubber and the
 * usage observer see its real bytes; one it cannot decompress is answered with a 502.
 * A stream that sends nothing but keep-alives (pings, comments) for `progressMs` is cut.
 *
 * `finish` runs exactly once, after the last upstream byte and before the client's
 * response ends, so a call's ledger record exists before its client sees the end of it.
 */
import type { ClientRequest, IncomingMessage, ServerResponse } from 'node:http';
import type { Readable } from 'node:stream';
import type { GatewayReply } from '../error-reply.js';
import { clientResponseHeaders } from '../forward-headers.js';
import type { Scrubber } from '../scrubber.js';
import { bodyDecoding, decodedStream } from './decode-body.js';
import { UpstreamFailure } from './upstream-request.js';

/** Largest buffered body (bytes, decompressed): past it, the call is cut rather than held in memory. */
const MAX_BUFFERED_BODY = 64 * 1024 * 1024;
/**
 * Bytes every stream event that carries content or usage holds, in all three protocols
 * (`content_block_delta`, chat deltas, `response.*.delta`, `message_start`'s and the final
 * events' usage). Keep-alives (`event: ping`, `: comment` lines) hold none of them.
 */
const PROGRESS = [Buffer.from('"delta"'), Buffer.from('"usage"'), Buffer.from('"content_block"')];

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
  /** Streams: longest time without an event carrying content or usage (ms); undefined: no limit here. */
  progressMs?: number | undefined;
  /** The reply for a body the gateway cannot decompress (a 502 in the caller's protocol). */
  undecodable: (message: string) => GatewayReply;
}

export function relayResponse(options: RelayOptions): Promise<RelayEnd> {
  const { client, scrub, started, observe } = options;
  const { request, response } = options.upstream;
  const status = response.statusCode ?? 502;
  const buffered = observe === undefined;
  const decoding = bodyDecoding(response.headers);
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
    let progress: NodeJS.Timeout | undefined;
    const end = (result: Omit<RelayEnd, 'ttfbMs' | 'body'>, refusal?: GatewayReply): void => {
      if (done) return;
      done = true;
      clearTimeout(progress);
      observeRelayed();
      const body = buffered ? scrub.body(chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks)) : undefined;
      const outcome: RelayEnd = { ...result, body, ttfbMs };
      options.finish(outcome);
      if (refusal !== undefined) {
        request.destroy();
        if (!client.headersSent) client.writeHead(refusal.status, refusal.headers).end(refusal.body);
        else client.destroy();
      } else if (!result.completed) {
        request.destroy();
        client.destroy();
      } else if (buffered) {
        client.writeHead(status, { ...headers(false), 'content-length': String(body?.length ?? 0) });
        client.end(body);
      } else {
        const rest = scrubStream?.end();
        client.end(rest !== undefined && rest.length > 0 ? rest : undefined);
      }
      resolve(outcome);
    };

    if (decoding.kind === 'unsupported') {
      // Nothing of it can be read or scrubbed: none of it is relayed. The upstream may have billed (the caller books it).
      const message = `the upstream answered with content-encoding '${decoding.encoding.slice(0, 40)}', which the gateway cannot decompress (it asks for identity)`;
      end({ completed: false, cut: message }, options.undecodable(`isobudget gateway: ${message}`));
      return;
    }
    const source: Readable = decoding.kind === 'decode' ? decodedStream(response, decoding.make()) : response;
    const headers = (keepLength: boolean) => {
      const out = clientResponseHeaders(response.headers, scrub.text, keepLength && decoding.kind === 'identity');
      // What the client gets is decoded: neither the coding nor the coded length is true of it.
      if (decoding.kind === 'decode') delete out['content-encoding'];
      return out;
    };
    const progressMs = buffered ? undefined : options.progressMs;
    const stalled = (): void => {
      response.destroy(new UpstreamFailure(504, `the upstream stream sent no content or usage for ${progressMs} ms (keep-alives are not progress)`));
    };
    if (progressMs !== undefined) progress = setTimeout(stalled, progressMs);
    // The headers leave with the first chunk — one write fewer per stream, and the first body byte is not delayed.
    if (!buffered) client.writeHead(status, headers(true));
    source.on('data', (chunk: Buffer) => {
      if (done) return;
      ttfbMs ??= performance.now() - started;
      if (buffered) {
        kept += chunk.length;
        if (kept > MAX_BUFFERED_BODY) end({ completed: false, cut: `upstream body over ${MAX_BUFFERED_BODY} bytes` });
        else chunks.push(chunk);
        return;
      }
      if (progressMs !== undefined && PROGRESS.some((literal) => chunk.includes(literal))) progress?.refresh();
      // The client first, the bookkeeping after: parsing the chunk's usage must not delay it.
      const flowing = client.write(scrubStream?.push(chunk) ?? chunk);
      unobserved.push(chunk);
      if (!observing) {
        observing = true;
        process.nextTick(observeRelayed);
      }
      if (!flowing) source.pause();
    });
    client.on('drain', () => source.resume());
    source.on('end', () => end({ completed: true, cut: undefined }));
    const failed = (error: Error): void => end({ completed: false, cut: error instanceof UpstreamFailure ? error.message : source === response ? 'upstream stream cut' : 'upstream body could not be decompressed' });
    response.on('error', failed);
    if (source !== response) source.on('error', failed);
    // A decoder ends after its input has closed: only an answer that did not arrive whole is a cut.
    response.on('close', () => {
      if (source === response || !response.complete) end({ completed: false, cut: 'upstream stream cut' });
    });
    client.on('close', () => end({ completed: false, cut: 'client closed' }));
  });
}
