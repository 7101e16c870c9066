import { describe, expect, test } from 'vitest';
import { makeScrubber } from './scrubber.js';

const KEY = 'sk-upstream-0123456789abcdef';

describe('stream scrubber', () => {
  const text = `data: {"a":"${KEY}"}\n\ndata: {"b":"sk-up"}\n\ndata: {"c":"${KEY}${KEY}"}\n\n`;
  const expected = text.split(KEY).join('*'.repeat(KEY.length));

  test('a key cut at any byte, in two or in many pieces, never passes; everything else does, in order', () => {
    const whole = Buffer.from(text);
    for (let cut = 1; cut < whole.length; cut += 1) {
      const stream = makeScrubber(KEY).stream();
      const out = Buffer.concat([stream.push(whole.subarray(0, cut)), stream.push(whole.subarray(cut)), stream.end()]).toString();
      expect(out, `cut at ${cut}`).toBe(expected);
    }
    for (const size of [1, 2, 3, 7]) {
      const stream = makeScrubber(KEY).stream();
      const pieces: Buffer[] = [];
      for (let at = 0; at < whole.length; at += size) pieces.push(stream.push(whole.subarray(at, at + size)));
      pieces.push(stream.end());
      expect(Buffer.concat(pieces).toString(), `pieces of ${size}`).toBe(expected);
    }
  });

  test('only a possible start of the key is held back: a chunk ending otherwise passes whole', () => {
    const stream = makeScrubber(KEY).stream();
    expect(stream.push(Buffer.from('data: {"x":1}\n\n')).toString()).toBe('data: {"x":1}\n\n');
    expect(stream.push(Buffer.from('tail sk-upst')).toString()).toBe('tail ');
    expect(stream.push(Buffer.from('airs!')).toString()).toBe('sk-upstairs!');
    expect(stream.push(Buffer.from(' s')).toString()).toBe(' ');
    expect(stream.end().toString()).toBe('s');
  });
});
