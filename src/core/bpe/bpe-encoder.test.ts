import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
// An independent implementation of the same encoding (its own tables, its own merge code).
import { encode as referenceEncode } from 'gpt-tokenizer/encoding/o200k_base';
import { createBpeEncoder } from './bpe-encoder.js';
import { o200k } from './o200k.js';
import { parseTiktoken } from './token-table.js';

const require = createRequire(import.meta.url);
const SHARED = process.env['ISOBUDGET_SHARED'] ?? '/work/shared';

/** tiktoken's own test vectors for o200k_base, as gpt-tokenizer ships them. */
function testPlans(): Array<{ sample: string; encoded: number[] }> {
  const text = readFileSync(require.resolve('gpt-tokenizer/data/TestPlans.txt'), 'utf8');
  const plans: Array<{ sample: string; encoded: number[] }> = [];
  for (const block of text.split(/\n\n(?=EncodingName: )/)) {
    const match = /^EncodingName: (\S+)\nSample: ([\s\S]*)\nEncoded: (\[[^\]]*\])\s*$/.exec(block);
    if (match?.[1] === 'o200k_base') plans.push({ sample: match[2] ?? '', encoded: JSON.parse(match[3] ?? '[]') as number[] });
  }
  return plans;
}

/** Real text: every MBPP problem, HumanEval prompt and BIG-Bench Hard input on this machine. */
function datasetTexts(): string[] {
  const texts: string[] = [];
  const jsonl = (file: string): Array<Record<string, unknown>> => readFileSync(file, 'utf8').split('\n').filter((l) => l.trim() !== '').map((l) => JSON.parse(l) as Record<string, unknown>);
  for (const row of jsonl(join(SHARED, 'datasets/mbpp/mbpp.jsonl'))) texts.push(String(row['text']), String(row['code']));
  for (const row of jsonl(join(SHARED, 'datasets/humaneval/HumanEval.jsonl'))) texts.push(String(row['prompt']), String(row['canonical_solution']));
  const bbh = join(SHARED, 'datasets/bbh/bbh');
  for (const file of readdirSync(bbh).filter((f) => f.endsWith('.json'))) {
    const { examples } = JSON.parse(readFileSync(join(bbh, file), 'utf8')) as { examples: Array<{ input: string; target: string }> };
    for (const example of examples) texts.push(example.input, example.target);
  }
  return texts;
}

describe('o200k_base BPE', () => {
  const plans = testPlans();

  test('tiktoken test plans: every o200k_base sample encodes to the published ids', () => {
    expect(plans.length).toBeGreaterThan(50);
    for (const { sample, encoded } of plans) expect(o200k().encode(sample), sample).toEqual(encoded);
  });

  test('decode(encode(x)) is x, and count is the number of ids', () => {
    for (const { sample } of plans) {
      const ids = o200k().encode(sample);
      expect(o200k().decode(ids)).toBe(sample);
      expect(o200k().count(sample)).toBe(ids.length);
    }
  });

  test.skipIf(!existsSync(join(SHARED, 'datasets')))('HumanEval, MBPP and BIG-Bench Hard: the same ids as gpt-tokenizer, text by text', () => {
    const texts = datasetTexts();
    expect(texts.length).toBeGreaterThan(10_000);
    let tokens = 0;
    for (const text of texts) {
      const ids = o200k().encode(text);
      expect(ids, text.slice(0, 80)).toEqual(referenceEncode(text));
      expect(o200k().count(text)).toBe(ids.length);
      tokens += ids.length;
    }
    expect(tokens).toBeGreaterThan(500_000);
  });

  test('text unlike any dataset: scripts, emoji, long runs, contractions, control characters', () => {
    const samples = [
      "I'LL tell you what's what: they'Re here, we've gone, he'd've known.",
      'Ünïcödé ñ 日本語のテキスト 한국어 текст العربية हिन्दी 🤖🏳️‍🌈👩🏽‍💻',
      `${'='.repeat(500)}\n${' '.repeat(300)}x\n\n\n\t\t${'ab'.repeat(400)}`,
      '0123456789012345678901234567890 3.14159e-10 0x1F 1,000,000',
      'a\u0000b\u0007c\r\nd\u2028e\u00a0f',
      'https://example.com/a/b?c=d&e=f#g /usr/local/bin/ ../..//',
    ];
    for (const sample of samples) {
      expect(o200k().encode(sample), sample).toEqual(referenceEncode(sample));
      expect(o200k().count(sample), sample).toBe(referenceEncode(sample).length);
    }
  });

  test('U+FEFF is the one token its bytes are in the vocabulary (gpt-tokenizer loses it to TextDecoder BOM stripping)', () => {
    const line = readFileSync(require.resolve('gpt-tokenizer/data/o200k_base.tiktoken'), 'utf8').split('\n').find((l) => l.startsWith(`${Buffer.from('\ufeff').toString('base64')} `));
    expect(line).toBe('77u/ 5574');
    expect(o200k().encode('x\ufeff')).toEqual([...o200k().encode('x'), 5574]);
    expect(o200k().decode([5574])).toBe('\ufeff');
  });

  test('special-token strings are plain text, never an error', () => {
    const ids = o200k().encode('before <|endoftext|> after');
    expect(ids).not.toContain(199999);
    expect(o200k().decode(ids)).toBe('before <|endoftext|> after');
  });

  test('a cut through a multi-byte character drops the partial character', () => {
    const ids = o200k().encode('🤖');
    expect(ids.length).toBeGreaterThan(1);
    expect(o200k().decode(ids.slice(0, 1))).toBe('');
    expect(() => o200k().decode([-1])).toThrow('token id -1 is not in the vocabulary');
  });
});

describe('tiktoken file', () => {
  test('a tiny vocabulary: ranks placed by rank, merges lowest rank first', () => {
    const line = (token: string, rank: number): string => `${Buffer.from(token).toString('base64')} ${rank}`;
    const file = Buffer.from([line('b', 1), line('a', 0), line('c', 2), line('ab', 3), line('bc', 4), line('abc', 5)].join('\n'));
    const encoder = createBpeEncoder(parseTiktoken(file), /\S+|\s+/gu);
    expect(encoder.encode('abc')).toEqual([5]);
    expect(encoder.encode('cab')).toEqual([2, 3]);
    expect(encoder.encode('bca')).toEqual([4, 0]);
    expect(encoder.decode([3, 2])).toBe('abc');
  });

  test('count walks the pieces as encode does, where the split pattern leaves gaps too', () => {
    const line = (token: string, rank: number): string => `${Buffer.from(token).toString('base64')} ${rank}`;
    const file = Buffer.from([line('a', 0), line('b', 1), line('c', 2), line('ab', 3), line('é', 4)].join('\n'));
    // Only runs of a/b/c/é are pieces: spaces and digits between them are skipped by both.
    const encoder = createBpeEncoder(parseTiktoken(file), /[abcé]+/gu);
    for (const text of ['abcab', '  ab 12 c', '9', 'é ab é', 'ab'.repeat(200), '']) expect(encoder.count(text), text).toBe(encoder.encode(text).length);
    expect(encoder.count('  ab 12 c')).toBe(2);
  });

  test('malformed lines are named', () => {
    expect(() => parseTiktoken(Buffer.from('YQ== 0\nYg==\n'), 'vocab.tiktoken')).toThrow('vocab.tiktoken:2: expected "<base64> <rank>"');
    expect(() => parseTiktoken(Buffer.from('YQ== 0\nY*== 1\n'), 'v')).toThrow("v:2: '*' is not base64");
    expect(() => parseTiktoken(Buffer.from('YQ== 0\nYg== 0\n'), 'v')).toThrow('v:2: rank 0 is out of range or repeated');
    expect(() => parseTiktoken(Buffer.from('YQ== 0\nYg== 2\n'), 'v')).toThrow('ranks must be 0..1, each once (rank 1 is missing)');
  });
});
