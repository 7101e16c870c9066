/**
 * Incremental `text/event-stream` decoder: bytes in as they arrive from upstream, complete
 * events out. Chunks split anywhere — inside a UTF-8 character, a line, or a CRLF — so the
 * tail of each chunk is held until the event it belongs to is complete.
 *
 * With a `marker`, only events whose text matches it are parsed: a long answer streams as
 * hundreds of text deltas and none of them carries usage, so the gateway finds the few that
 * do with one native regex scan per chunk instead of handling every event in JavaScript.
 */
import { StringDecoder } from 'node:string_decoder';

export interface StreamEvent {
  /** The `event:` field, when the stream names its events (Anthropic, Responses). */
  event: string | undefined;
  /** The `data:` lines joined with newlines. */
  data: string;
}

export class SseDecoder {
  private readonly text = new StringDecoder('utf8');
  private pending = '';

  /** `marker` must be a global regex; undefined parses every event. */
  constructor(private readonly marker?: RegExp) {}

  push(chunk: Buffer): StreamEvent[] {
    return this.drain(this.text.write(chunk), false);
  }

  /** The stream ended: whatever is left is the last event (servers may omit the final blank line). */
  end(): StreamEvent[] {
    return this.drain(this.text.end(), true);
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
