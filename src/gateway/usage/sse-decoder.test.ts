import { describe, expect, test } from 'vitest';
import { SseDecoder, type StreamEvent } from './sse-decoder.js';

const STREAM = 'event: message_start\ndata: {"a":"é✓"}\n\nevent: ping\ndata: {}\n\ndata: line one\ndata: line two\n\n: a comment\n\ndata: [DONE]\n\n';
const EXPECTED: StreamEvent[] = [
  { event: 'message_start', data: '{"a":"é✓"}' },
  { event: 'ping', data: '{}' },
  { event: undefined, data: 'line one\nline two' },
  { event: undefined, data: '[DONE]' },
];

function decodeInPieces(bytes: Buffer, cuts: number[]): StreamEvent[] {
  const decoder = new SseDecoder();
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
