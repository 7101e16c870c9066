/**
 * Upstream bodies the gateway did not ask to be compressed (issue 20 item 7). The gateway
 * sends `accept-encoding: identity` so it can read usage and scrub the upstream key from every
 * byte; an upstream (or a proxy in front of it) that compresses anyway would have its bytes
 * relayed unread — the client decompresses them, key included. So a `content-encoding` is
 * undone before anything is scrubbed, observed or relayed, and one the gateway cannot undo is
 * refused (the relay answers 502).
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { Readable, Transform } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';

export type BodyDecoding =
  | { kind: 'identity' }
  | { kind: 'decode'; /** Decoders in the order the bytes go through them. */ make: () => Transform[]; encoding: string }
  | { kind: 'unsupported'; encoding: string };

const DECODERS: Readonly<Record<string, () => Transform>> = {
  gzip: createGunzip,
  'x-gzip': createGunzip,
  // RFC 9110 §8.4.1.2: `deflate` is the zlib format.
  deflate: createInflate,
  br: createBrotliDecompress,
};

export function bodyDecoding(headers: IncomingHttpHeaders): BodyDecoding {
  const header = headers['content-encoding'];
  if (header === undefined || header === '') return { kind: 'identity' };
  // Codings are listed in the order they were applied: undone last first (RFC 9110 §8.4).
  const codings = header.split(',').map((coding) => coding.trim().toLowerCase()).filter((coding) => coding !== '' && coding !== 'identity');
  if (codings.length === 0) return { kind: 'identity' };
  const unsupported = codings.find((coding) => DECODERS[coding] === undefined);
  if (unsupported !== undefined) return { kind: 'unsupported', encoding: header };
  return { kind: 'decode', encoding: header, make: () => codings.reverse().map((coding) => (DECODERS[coding] as () => Transform)()) };
}

/** `response` piped through its decoders; the last one is what the relay reads (and reports any decoder's error). */
export function decodedStream(response: Readable, decoders: Transform[]): Readable {
  let source: Readable = response;
  for (const decoder of decoders) source = source.pipe(decoder);
  for (const decoder of decoders) if (decoder !== source) decoder.on('error', (error) => source.destroy(error));
  return source;
}
