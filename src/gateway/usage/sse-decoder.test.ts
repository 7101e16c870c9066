import { describe, expect, test } from 'vitest';
import { SseDecoder, type StreamEvent } from './sse-decoder.js';

const STREAM = 'event: message_start\ndata: {"a":"é✓"}\n\nevent: ping\ndata: {}\n\ndata: line one\ndata: line two\n\n: a comment\n\ndata: [DONE]\n\n';
const EXPECTED: StreamEvent[] = [
  { event: 'message_start', data: '{"a":"é✓"}' },
  { event: 'ping', data: '{}' },
  { event: undefined, data: 'line one\nline two' },
  { event: undefined, data: '[DONE]' },
];

function decodeInPieces(bytes: Buffer, cuts: number[], decoder = new SseDecoder()): StreamEvent[] {
  const events: StreamEvent[] = [];
  let start = 0;
  for (const cut of [...cuts, bytes.length]) {
    events.push(...decoder.push(bytes.subarray(start, cut)));
    start = cut;
  }
  return [...events, ...decoder.end()];
}

describe('SseDecoder', () => {
  test('a stream cut at every byte boundary (inside UTF-8 characters too) decodes the same', () => {
    const bytes = Buffer.from(STREAM);
    for (let cut = 1; cut < bytes.length; cut += 1) expect(decodeInPieces(bytes, [cut]), `cut at ${cut}`).toEqual(EXPECTED);
    expect(decodeInPieces(bytes, Array.from({ length: bytes.length - 1 }, (_, i) => i + 1))).toEqual(EXPECTED);
  });

  test('CRLF line endings, split between CR and LF', () => {
    const bytes = Buffer.from(STREAM.replace(/\n/g, '\r\n'));
    for (let cut = 1; cut < bytes.length; cut += 7) expect(decodeInPieces(bytes, [cut])).toEqual(EXPECTED);
    const crAt = bytes.indexOf('\r');
    expect(decodeInPieces(bytes, [crAt + 1])).toEqual(EXPECTED);
  });

  test('a last event without its blank line is delivered at the end', () => {
    expect(decodeInPieces(Buffer.from('data: {"x":1}\n\ndata: {"y":2}'), [])).toEqual([{ event: undefined, data: '{"x":1}' }, { event: undefined, data: '{"y":2}' }]);
  });

  test('events are delivered as soon as they are complete', () => {
    const decoder = new SseDecoder();
    expect(decoder.push(Buffer.from('data: 1\n\ndata: 2'))).toEqual([{ event: undefined, data: '1' }]);
    expect(decoder.push(Buffer.from('\n\n'))).toEqual([{ event: undefined, data: '2' }]);
  });
});

describe('SseDecoder with a marker', () => {
  test('only matching events are parsed, wherever the chunks are cut', () => {
    const text = 'event: a\ndata: {"type":"keep","n":1}\n\nevent: b\ndata: {"type":"skip"}\n\ndata: {"type":"keep","n":2}\n\n';
    const bytes = Buffer.from(text);
    for (let cut = 1; cut < bytes.length; cut += 1) {
      const decoder = new SseDecoder(/"type":"keep"/g);
      const events = [...decoder.push(bytes.subarray(0, cut)), ...decoder.push(bytes.subarray(cut)), ...decoder.end()];
      expect(events, `cut at ${cut}`).toEqual([{ event: 'a', data: '{"type":"keep","n":1}' }, { event: undefined, data: '{"type":"keep","n":2}' }]);
    }
  });
});

describe('SseDecoder with a marker and literals (events gated at the byte level)', () => {
  const text = 'event: a\ndata: {"type":"keep","n":"é✓"}\n\nevent: b\ndata: {"type":"skip"}\n\n: comment\n\ndata: {"type":"skip","t":"日本"}\n\ndata: {"type":"keep","n":2}\n\ndata: {"type":"keep","n":3}';
  const expected: StreamEvent[] = [{ event: 'a', data: '{"type":"keep","n":"é✓"}' }, { event: undefined, data: '{"type":"keep","n":2}' }, { event: undefined, data: '{"type":"keep","n":3}' }];
  const gated = (bytes: Buffer, cuts: number[]): StreamEvent[] => decodeInPieces(bytes, cuts, new SseDecoder(/"type":"keep"/g, ['"keep"']));

  test.each([
    ['LF', '\n'],
    ['CRLF', '\r\n'],
    ['CR', '\r'],
  ])('%s line endings: the same events as decoding everything, wherever the chunks are cut', (_name, eol) => {
    const bytes = Buffer.from(text.replace(/\n/g, eol));
    for (let cut = 1; cut < bytes.length; cut += 1) expect(gated(bytes, [cut]), `cut at ${cut}`).toEqual(expected);
    expect(gated(bytes, Array.from({ length: bytes.length - 1 }, (_, i) => i + 1))).toEqual(expected);
    expect(gated(bytes, [])).toEqual(expected);
  });

  test('a run of events without a literal is never decoded; an event is delivered once it is complete', () => {
    const decoder = new SseDecoder(/"type":"keep"/g, ['"keep"']);
    expect(decoder.push(Buffer.from('data: {"type":"skip"}\n\ndata: {"type":"ke'))).toEqual([]);
    expect(decoder.push(Buffer.from('ep"}\n\n'))).toEqual([{ event: undefined, data: '{"type":"keep"}' }]);
    expect(decoder.end()).toEqual([]);
  });
});
