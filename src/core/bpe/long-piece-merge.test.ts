import { randomBytes } from 'node:crypto';
import { describe, expect, test } from 'vitest';
// An independent implementation of the same encoding, with tiktoken's quadratic merge loop.
import { encode as referenceEncode } from 'gpt-tokenizer/encoding/o200k_base';
import { o200k } from './o200k.js';

/** This process's CPU time (ms): a loaded CI machine deschedules it mid-measurement, which wall time would count. */
function cpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

const MB = 1 << 20;

/** A fixed-seed LCG: the same strings on every run. */
function generator(seed: number): () => number {
  let state = seed;
  return () => (state = (Math.imul(state, 1103515245) + 12345) & 0x7fffffff) / 0x7fffffff;
}

/** Long pieces (no spaces, one script): the inputs the bucket merge takes over from the scan. */
function longPieces(count: number): string[] {
  const random = generator(16);
  const alphabets = ['ab', 'aA', 'xyzXYZ', '的一是不了', 'ａｂｃ', 'éèêë', 'qwertyuiopasdfghjklzxcvbnm', 'ßẞ', '한국어텍스트', 'कखगघ', '!?.,;:', ' \t', '\n ', '0123456789abcdef'];
  return Array.from({ length: count }, (_, i) => {
    const letters = [...(alphabets[i % alphabets.length] as string)];
    const runs = random() < 0.5;
    let text = '';
    const length = 200 + Math.floor(random() * 1500);
    while (text.length < length) {
      const letter = letters[Math.floor(random() * letters.length)] as string;
      text += runs ? letter.repeat(1 + Math.floor(random() * 20)) : letter;
    }
    return text;
  });
}

/** `text` repeated and cut to `bytes` of UTF-8 (whole characters). */
function fill(text: string, bytes: number): string {
  const characters = [...text.repeat(Math.ceil(bytes / Buffer.byteLength(text)))];
  let out = '';
  let size = 0;
  for (const character of characters) {
    size += Buffer.byteLength(character);
    if (size > bytes) break;
    out += character;
  }
  return out;
}

describe('long pieces', () => {
  test('the same ids as gpt-tokenizer on 140 long one-script pieces (runs, mixed case, CJK, Hangul, Devanagari, punctuation, whitespace)', () => {
    for (const text of longPieces(140)) expect(o200k().encode(text), text.slice(0, 40)).toEqual(referenceEncode(text));
  });

  const random = generator(7);
  const inputs: Array<[string, string]> = [
    ['one repeated letter', 'a'.repeat(MB)],
    ['digits', Array.from({ length: MB }, () => String(Math.floor(random() * 10))).join('')],
    ['CJK without punctuation', fill('预算公平的评测比较同样的案例同样的预算自我进化的智能体是否真的变聪明了还是只是花得更多', MB)],
    ['base64', randomBytes((MB * 3) / 4).toString('base64')],
  ];
  // The bound here is generous for a loaded CI machine; bench/tokenizer-long-pieces.mjs has the figures (≤ 200 ms).
  test.each(inputs)('1 MB of %s: counted in linear time, and the ids decode to the text', (_name, text) => {
    o200k().count('warm');
    const started = cpuMs();
    const count = o200k().count(text);
    const elapsed = cpuMs() - started;
    expect(elapsed).toBeLessThan(1500);
    const ids = o200k().encode(text);
    expect(ids.length).toBe(count);
    expect(o200k().decode(ids)).toBe(text);
  });

  test('four times the run is at most ~4× the time (quadratic would be 16×)', () => {
    const time = (length: number): number => {
      const text = 'z'.repeat(length);
      const started = cpuMs();
      o200k().count(text);
      return cpuMs() - started;
    };
    time(1000);
    const small = Math.min(time(200_000), time(200_000));
    const large = Math.min(time(800_000), time(800_000));
    // Linear: ×4 the input is ~×4 the time; quadratic would be ×16.
    expect(large / small).toBeLessThan(10);
  });
});
