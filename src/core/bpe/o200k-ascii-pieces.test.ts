import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
// An independent implementation of the same encoding (its own tables, its own merge code).
import { encode as referenceEncode } from 'gpt-tokenizer/encoding/o200k_base';
import { createRng } from '../../stats/rng.js';
import { O200K_SPLIT, o200k } from './o200k.js';
import { UNKNOWN, o200kAsciiPieceEnd } from './o200k-ascii-pieces.js';

const sticky = new RegExp(O200K_SPLIT.source, 'uy');

/** What the regex gives at `at`: the end of its match, or -1 when none starts there. */
function regexEnd(text: string, at: number): number {
  sticky.lastIndex = at;
  return sticky.test(text) ? sticky.lastIndex : -1;
}

function regexPieces(text: string): string[] {
  const pieces: string[] = [];
  for (let at = 0; at < text.length; ) {
    const end = regexEnd(text, at);
    if (end <= at) throw new Error(`no piece at ${at} of ${JSON.stringify(text)}`);
    pieces.push(text.slice(at, end));
    at = end;
  }
  return pieces;
}

/** Positions of `text` where the fast path answers, and where it disagrees with the regex. */
function compare(text: string): { decided: number; mismatches: string[] } {
  let decided = 0;
  const mismatches: string[] = [];
  for (let at = 0; at < text.length; at += 1) {
    const fast = o200kAsciiPieceEnd(text, at);
    if (fast === UNKNOWN) continue;
    decided += 1;
    const expected = regexEnd(text, at);
    if (fast !== expected) mismatches.push(`${JSON.stringify(text)} at ${at}: fast ${fast}, regex ${expected}`);
  }
  return { decided, mismatches };
}

const isAscii = (text: string): boolean => /^[\x00-\x7f]*$/.test(text);

/** Units of fuzzed text, weighted toward what the alternatives turn on. */
const ALPHABET: Array<[string, number]> = [
  ...[...'aezxsltdmrvAEZXSLTDMRVI'].map((c): [string, number] => [c, 4]),
  ...[...'0159'].map((c): [string, number] => [c, 4]),
  ...["'s", "'S", "'t", "'T", "'re", "'RE", "'rE", "'ve", "'Ve", "'m", "'M", "'ll", "'LL", "'lL", "'d", "'D", "'", "'r", "'l", "'v"].map(
    (c): [string, number] => [c, 2],
  ),
  [' ', 14],
  ['  ', 3],
  ['\t', 3],
  ['\r', 3],
  ['\n', 4],
  ['\r\n', 2],
  ['\v', 1],
  ['\f', 1],
  ...[...'.,;:{}[]()"-_=+*#$<>|\\`^~!?@&%'].map((c): [string, number] => [c, 1]),
  ['/', 4],
  ['//', 2],
  ['\u0000', 1],
  ['\u001c', 1],
  ['\u007f', 1],
  // Non-ASCII: a letter, CJK, NBSP and LS (whitespace), an emoji, ſ (folds to s only under /i),
  // an Arabic-Indic digit, a combining mark (M: in both letter classes), ǅ (Lt) and ʰ (Lm).
  ...['é', '中', '\u00a0', '\u2028', '😀', 'ſ', '٣', '\u0301', 'ǅ', 'ʰ', '—'].map((c): [string, number] => [c, 1]),
];

function fuzzText(rng: ReturnType<typeof createRng>, units: number): string {
  const total = ALPHABET.reduce((sum, [, weight]) => sum + weight, 0);
  let text = '';
  for (let i = 0; i < units; i += 1) {
    let pick = rng.int(total);
    for (const [unit, weight] of ALPHABET) {
      if (pick < weight) {
        text += unit;
        break;
      }
      pick -= weight;
    }
  }
  return text;
}

describe('o200k ASCII pre-tokenizer', () => {
  test('differential fuzz: at every position the fast path answers as the regex does, and it answers most of them', () => {
    const rng = createRng(20261202);
    let positions = 0;
    let decided = 0;
    const mismatches: string[] = [];
    for (let round = 0; round < 8000; round += 1) {
      const text = fuzzText(rng, 1 + rng.int(60));
      const result = compare(text);
      positions += text.length;
      decided += result.decided;
      mismatches.push(...result.mismatches);
      // On ASCII text nothing is in doubt: every position is decided.
      if (isAscii(text)) expect(result.decided, JSON.stringify(text)).toBe(text.length);
    }
    expect(mismatches.slice(0, 10)).toEqual([]);
    expect(positions).toBeGreaterThan(250_000);
    // About 0.89 with this seed and alphabet.
    expect(decided / positions).toBeGreaterThan(0.7);
  });

  const cases: Array<[string, string[]]> = [
    ['HELLO world', ['HELLO', ' world']],
    ['HELLOworld', ['HELLOworld']],
    ['HELLOWorld', ['HELLOWorld']],
    ['aB', ['a', 'B']],
    ["I'M", ["I'M"]],
    ["ABC'S", ["ABC'S"]],
    ["don't", ["don't"]],
    ["x'LL", ["x'LL"]],
    ["we'Re they'rE", ["we'Re", " they'rE"]],
    ["it'z", ['it', "'z"]],
    ["'s", ["'s"]],
    ['.Hello', ['.Hello']],
    ['\tfoo', ['\tfoo']],
    ['\nfoo', ['\n', 'foo']],
    ['  \n\n  x', ['  \n\n', ' ', ' x']],
    ['a  b', ['a', ' ', ' b']],
    ['  foo', [' ', ' foo']],
    ['a \n', ['a', ' \n']],
    ['\t\t\n', ['\t\t\n']],
    ['x\r\n\r\n  \ty', ['x', '\r\n\r\n', '  ', '\ty']],
    ['\v\f x', ['\v\f', ' x']],
    ['  ', ['  ']],
    ['123456', ['123', '456']],
    ['1234 5', ['123', '4', ' ', '5']],
    ['a/b//\n', ['a', '/b', '//\n']],
    ['$$/\n/x', ['$$/\n/', 'x']],
    ['--\r\n', ['--\r\n']],
    ['x = {"a": 1}', ['x', ' =', ' {"', 'a', '":', ' ', '1', '}']],
    // Non-ASCII: the fast path must step aside where these decide the piece.
    [' \u00a0', [' \u00a0']],
    ['é', ['é']],
    ['12٣4', ['12٣', '4']],
    ['a\u2028 b', ['a', '\u2028', ' b']],
    ['ABCé', ['ABCé']],
  ];

  test.each(cases)('%j splits as the regex does, and counts and encodes as gpt-tokenizer', (text, pieces) => {
    expect(regexPieces(text)).toEqual(pieces);
    const { decided, mismatches } = compare(text);
    expect(mismatches).toEqual([]);
    if (isAscii(text)) expect(decided).toBe(text.length);
    const reference = referenceEncode(text);
    expect(o200k().encode(text)).toEqual(reference);
    expect(o200k().count(text)).toBe(reference.length);
  });

  test('non-ASCII next to a decision is UNKNOWN', () => {
    expect(o200kAsciiPieceEnd(' \u00a0', 0)).toBe(UNKNOWN); // NBSP is \s: the run goes on
    expect(o200kAsciiPieceEnd('.é', 0)).toBe(UNKNOWN); // é would be the letters after the lead
    expect(o200kAsciiPieceEnd('12٣', 0)).toBe(UNKNOWN); // ٣ is \p{N}
    expect(o200kAsciiPieceEnd('ab\u0301', 0)).toBe(UNKNOWN); // a combining mark continues the letters
    expect(o200kAsciiPieceEnd('é', 0)).toBe(UNKNOWN);
    expect(o200kAsciiPieceEnd('', 0)).toBe(UNKNOWN);
    // Past three digits, or after a contraction, what follows does not matter.
    expect(o200kAsciiPieceEnd('123٣', 0)).toBe(3);
    expect(o200kAsciiPieceEnd("it'sé", 0)).toBe(4);
  });

  test('70 KB of JSON and code: the same ids and count as gpt-tokenizer', () => {
    const lock = JSON.parse(readFileSync(join(import.meta.dirname, '..', '..', '..', 'package-lock.json'), 'utf8')) as { packages: Record<string, unknown> };
    // The lock file's JSON, then this folder's own sources (TypeScript: code, comments, regexes).
    const sources = readdirSync(import.meta.dirname).filter((name) => name.endsWith('.ts')).sort().map((name) => readFileSync(join(import.meta.dirname, name), 'utf8'));
    const text = [JSON.stringify(lock.packages, null, 2).slice(0, 45_000), ...sources].join('\n').slice(0, 70_000);
    expect(text.length).toBe(70_000);
    // The sources name `<|endoftext|>`: plain text to a chat API, as to o200k() (bpe-encoder.ts).
    const reference = referenceEncode(text, { disallowedSpecial: new Set() });
    expect(o200k().encode(text)).toEqual(reference);
    expect(o200k().count(text)).toBe(reference.length);
  });
});
