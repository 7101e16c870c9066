/**
 * Incremental `text/event-stream` decoder: bytes in as they arrive from upstream, complete
 * events out. Chunks split anywhere — inside a UTF-8 character, a line, or a CRLF — so the
 * tail of each chunk is held until the event it belongs to is complete.
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
    const events: StreamEvent[] = [];
    let start = 0;
    for (let end = buffer.indexOf('\n\n', start); end !== -1; end = buffer.indexOf('\n\n', start)) {
      const event = parseBlock(buffer.slice(start, end));
      if (event) events.push(event);
      start = end + 2;
    }
    this.pending = buffer.slice(start) + (heldCr ? '\r' : '');
    if (final) {
      const event = parseBlock(this.pending);
      if (event) events.push(event);
      this.pending = '';
    }
    return events;
  }
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
