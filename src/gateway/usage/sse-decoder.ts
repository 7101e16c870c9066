/**
 * Incremental `text/event-stream` decoder: bytes in as they arrive from upstream, complete
 * events out. Chunks split anywhere — inside a UTF-8 character, a line, or a CRLF — so the
 * tail of each chunk is held until the event it belongs to is complete.
 *
 * With a `marker`, only events whose text matches it are parsed: a long answer streams as
 * hundreds of text deltas and none of them carries usage, so the gateway finds the few that
 * do with one native regex scan per chunk instead of handling every event in JavaScript.
 *
 * With `literals` as well (strings every match of the marker contains), events are found at
 * the byte level and only those holding one of the literals are decoded to text at all: a
 * stream's text deltas then pass through without a single string being made of them.
 */
import { StringDecoder } from 'node:string_decoder';

export interface StreamEvent {
  /** The `event:` field, when the stream names its events (Anthropic, Responses). */
  event: string | undefined;
  /** The `data:` lines joined with newlines. */
  data: string;
}

/** Each observer's few literals, as bytes once per process rather than once per call. */
const LITERAL_BYTES = new Map<string, Buffer>();
function literalBytes(literal: string): Buffer {
  let bytes = LITERAL_BYTES.get(literal);
  if (bytes === undefined) LITERAL_BYTES.set(literal, (bytes = Buffer.from(literal)));
  return bytes;
}

const LF_LF = Buffer.from('\n\n');
const CRLF_CRLF = Buffer.from('\r\n\r\n');
const CR_CR = Buffer.from('\r\r');
const CR = 13;

export class SseDecoder {
  /** Made on first use: with literals, nothing is decoded through it. */
  private decoder: StringDecoder | undefined;
  private pending = '';
  private readonly literals: Buffer[] | undefined;
  /** With literals: the bytes after the last complete event. */
  private tail: Buffer | undefined;

  /** `marker` must be a global regex; undefined parses every event. */
  constructor(private readonly marker?: RegExp, literals?: readonly string[]) {
    this.literals = marker === undefined || literals === undefined ? undefined : literals.map(literalBytes);
  }

  push(chunk: Buffer): StreamEvent[] {
    if (this.literals === undefined) return this.drain((this.decoder ??= new StringDecoder('utf8')).write(chunk), false);
    const bytes = this.tail === undefined ? chunk : Buffer.concat([this.tail, chunk]);
    // Most streams end lines with LF alone: the CR forms of a blank line are looked for only
    // when the bytes hold a CR at all (one memchr), not in three full scans per chunk.
    const cr = bytes.includes(CR);
    const end = afterLastEvent(bytes, cr);
    if (end === -1) {
      this.tail = bytes;
      return [];
    }
    // A copy, so a small unfinished event does not keep a whole socket read alive.
    this.tail = end === bytes.length ? undefined : Buffer.from(bytes.subarray(end));
    return this.literalEvents(bytes, end, this.literals, cr);
  }

  /** The events in bytes[0..end) that hold a literal, each decoded alone (cut at blank lines: whole characters). */
  private literalEvents(bytes: Buffer, end: number, literals: Buffer[], cr: boolean): StreamEvent[] {
    const events: StreamEvent[] = [];
    // Each literal's next occurrence, remembered: a literal that is absent is scanned for once per chunk, not once per hit.
    const next = literals.map(() => -2);
    for (let from = 0; from < end; ) {
      let hit = -1;
      for (let i = 0; i < literals.length; i += 1) {
        if ((next[i] as number) !== -1 && (next[i] as number) < from) next[i] = bytes.indexOf(literals[i] as Buffer, from);
        const at = next[i] as number;
        if (at !== -1 && at < end && (hit === -1 || at < hit)) hit = at;
      }
      if (hit === -1) break;
      const eventEnd = Math.min(end, nextBlankLineEnd(bytes, hit, cr));
      events.push(...this.drain(bytes.toString('utf8', lastBlankLineEnd(bytes, hit, cr), eventEnd), true));
      from = eventEnd;
    }
    return events;
  }

  /** The stream ended: whatever is left is the last event (servers may omit the final blank line). */
  end(): StreamEvent[] {
    if (this.literals !== undefined) {
      const rest = this.tail;
      this.tail = undefined;
      return rest === undefined ? [] : this.drain(rest.toString('utf8'), true);
    }
    return this.drain(this.decoder?.end() ?? '', true);
  }

  private drain(text: string, final: boolean): StreamEvent[] {
    let buffer = this.pending + text;
    // A lone CR at the end may be the first half of a CRLF: keep it for the next chunk.
    const heldCr = !final && buffer.endsWith('\r');
    if (heldCr) buffer = buffer.slice(0, -1);
    if (buffer.includes('\r')) buffer = buffer.replace(/\r\n?/g, '\n');
    const boundary = final ? buffer.length : buffer.lastIndexOf('\n\n');
    if (boundary === -1) {
      this.pending = buffer + (heldCr ? '\r' : '');
      return [];
    }
    const complete = buffer.slice(0, boundary);
    this.pending = final ? '' : buffer.slice(boundary + 2) + (heldCr ? '\r' : '');
    return this.marker === undefined ? allEvents(complete) : markedEvents(complete, this.marker);
  }
}

/** The offset just past the last blank line (LF LF, CRLF CRLF or CR CR), or -1. */
function afterLastEvent(bytes: Buffer, hasCr: boolean): number {
  const lf = bytes.lastIndexOf(LF_LF);
  if (!hasCr) return lf === -1 ? -1 : lf + 2;
  const crlf = bytes.lastIndexOf(CRLF_CRLF);
  const cr = bytes.lastIndexOf(CR_CR);
  return Math.max(lf === -1 ? -1 : lf + 2, crlf === -1 ? -1 : crlf + 4, cr === -1 ? -1 : cr + 2);
}

/** Where the event holding byte `at` starts: just past the blank line before it, or 0. Literals hold no line breaks. */
function lastBlankLineEnd(bytes: Buffer, at: number, hasCr: boolean): number {
  const lf = bytes.lastIndexOf(LF_LF, at);
  if (!hasCr) return lf === -1 ? 0 : lf + 2;
  const crlf = bytes.lastIndexOf(CRLF_CRLF, at);
  const cr = bytes.lastIndexOf(CR_CR, at);
  return Math.max(0, lf === -1 ? 0 : lf + 2, crlf === -1 ? 0 : crlf + 4, cr === -1 ? 0 : cr + 2);
}

/** Where the event holding byte `at` ends: just past the next blank line, or the end of the bytes. */
function nextBlankLineEnd(bytes: Buffer, at: number, hasCr: boolean): number {
  const lf = bytes.indexOf(LF_LF, at);
  if (!hasCr) return lf === -1 ? bytes.length : lf + 2;
  const crlf = bytes.indexOf(CRLF_CRLF, at);
  const cr = bytes.indexOf(CR_CR, at);
  return Math.min(lf === -1 ? bytes.length : lf + 2, crlf === -1 ? bytes.length : crlf + 4, cr === -1 ? bytes.length : cr + 2);
}

function allEvents(region: string): StreamEvent[] {
  const events: StreamEvent[] = [];
  for (const block of region.split('\n\n')) {
    const event = parseBlock(block);
    if (event) events.push(event);
  }
  return events;
}

/** The events (blocks between blank lines) that contain a match of `marker`, each once. */
function markedEvents(region: string, marker: RegExp): StreamEvent[] {
  const events: StreamEvent[] = [];
  let parsedUpTo = -1;
  for (const match of region.matchAll(marker)) {
    if (match.index < parsedUpTo) continue;
    const before = region.lastIndexOf('\n\n', match.index);
    const after = region.indexOf('\n\n', match.index);
    const end = after === -1 ? region.length : after;
    const event = parseBlock(region.slice(before === -1 ? 0 : before + 2, end));
    if (event) events.push(event);
    parsedUpTo = end;
  }
  return events;
}

function parseBlock(block: string): StreamEvent | undefined {
  let event: string | undefined;
  let data: string | undefined;
  for (const line of block.split('\n')) {
    if (line.startsWith('data:')) {
      const value = line.charCodeAt(5) === 32 ? line.slice(6) : line.slice(5);
      data = data === undefined ? value : `${data}\n${value}`;
    } else if (line.startsWith('event:')) {
      event = line.slice(6).trim();
    }
  }
  return data === undefined ? undefined : { event, data };
}
