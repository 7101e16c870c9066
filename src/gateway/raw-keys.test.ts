import { beforeEach, describe, expect, test } from 'vitest';
import { walkBody } from './body-walk.js';
import { commonPrefix, commonSuffix, forgetRawKeys, rawKeyCount, rawKeyMemoSize } from './raw-keys.js';

/** A Claude-Code-shaped body: messages, then a system prompt and tools after them. */
const session = (turns: string[], extra: Record<string, unknown> = {}): string =>
  JSON.stringify({
    model: 'claude-sonnet-4-5',
    messages: turns.map((text, i) => ({ role: i % 2 ? 'assistant' : 'user', content: [{ type: 'text', text }] })),
    system: [{ type: 'text', text: 'You are a careful "assistant": say \\"no\\" when unsure.'.repeat(40) }],
    tools: [{ name: 'Read', description: 'Reads a file.', input_schema: { type: 'object', properties: { path: { type: 'string' } } } }],
    ...extra,
  });

describe('rawKeyCount with a memo gives what a whole scan gives', () => {
  beforeEach(() => forgetRawKeys());

  test('a session: each body adds a turn in the middle (messages come before system and tools)', () => {
    const turns = ['hello "there": {', 'a reply \\" with "key": quotes'];
    for (let i = 0; i < 20; i += 1) {
      turns.push(i % 3 === 0 ? `turn ${i}: "x": [` : `turn ${i}`);
      const text = session(turns);
      expect(rawKeyCount(text, 'k')).toBe(rawKeyCount(text));
      expect(rawKeyCount(text, 'k')).toBe(walkBody(JSON.parse(text) as Record<string, unknown>).keys);
    }
  });

  test('a body that shares the start and the end but differs inside is scanned where it differs: a duplicate key there is seen', () => {
    const first = session(['one', 'two', 'three']);
    const base = rawKeyCount(first, 'k');
    expect(base).toBe(rawKeyCount(first));
    // The same start and end: one turn's text replaced by a duplicate key.
    const crafted = first.replace('{"type":"text","text":"two"}', '{"type":"text","text":"tw","text":"o"}');
    expect(commonPrefix(crafted, first) + commonSuffix(crafted, first, commonPrefix(crafted, first))).toBeGreaterThan(first.length - 30);
    expect(rawKeyCount(crafted, 'k')).toBe(rawKeyCount(crafted));
    expect(rawKeyCount(crafted, 'k')).toBeGreaterThan(walkBody(JSON.parse(crafted) as Record<string, unknown>).keys);
  });

  test('an attacker body equal to the last but for one byte that flips what is a string keeps the whole-scan count', () => {
    // The last body holds `\\"` inside a string; the next drops one backslash, so the quote
    // after it ends the string there and the rest of the text reads differently — with the
    // same length, start and end as the last body save for those bytes.
    const last = JSON.stringify({ a: 'x\\\\', b: { c: 'y":1,"max_tokens":"z' }, tail: 'same end' });
    const next = last.replace('x\\\\\\\\', 'x\\\\\\"');
    expect(next.length).toBe(last.length);
    expect(rawKeyCount(last, 'k')).toBe(rawKeyCount(last));
    expect(rawKeyCount(next, 'k')).toBe(rawKeyCount(next));
  });

  test('random edits of random bodies, each against the last one under the same key (seeded)', () => {
    let seed = 11;
    const random = (): number => (seed = (Math.imul(seed, 1103515245) + 12345) & 0x7fffffff) / 0x7fffffff;
    const pieces = ['a', '"', '\\', ':', ' ', '{', '}', 'é', '\n', ',', '"k":', '\\"', '[', ']'];
    const noise = (): string => Array.from({ length: Math.floor(random() * 8) }, () => pieces[Math.floor(random() * pieces.length)]).join('');
    let text = session(['start']);
    for (let i = 0; i < 2000; i += 1) {
      // Insert, delete or replace a few characters anywhere: the result need not be JSON (then -1 either way).
      const at = Math.floor(random() * text.length);
      const cut = Math.floor(random() * 6);
      text = i % 50 === 0 ? session(['start', noise()]) : `${text.slice(0, at)}${noise()}${text.slice(at + cut)}`;
      expect(rawKeyCount(text, i % 7 === 0 ? 'other' : 'k')).toBe(rawKeyCount(text));
    }
  });

  test('the same text again, a text without quotes and an empty one', () => {
    const text = session(['a']);
    expect(rawKeyCount(text, 'k')).toBe(rawKeyCount(text, 'k'));
    expect(rawKeyCount('123', 'k')).toBe(0);
    expect(rawKeyCount('', 'k')).toBe(0);
    expect(rawKeyCount(text, 'k')).toBe(rawKeyCount(text));
  });
});

describe('the memo stays bounded', () => {
  test('300 sessions of ~70 KB texts: at most 256 sessions and 8 M characters are kept, and every count stays exact', () => {
    forgetRawKeys();
    const filler = 'words of a long tool result, "quoted": and not a key. '.repeat(1300);
    for (let i = 0; i < 300; i += 1) {
      const text = session([`session ${i}`, filler]);
      expect(rawKeyCount(text, `session-${i}`)).toBe(rawKeyCount(text));
      const { sessions, chars } = rawKeyMemoSize();
      expect(sessions).toBeLessThanOrEqual(256);
      expect(chars).toBeLessThanOrEqual(8 * 1024 * 1024);
    }
    expect(rawKeyMemoSize().chars).toBeGreaterThan(4 * 1024 * 1024);
    // A text over 1 M characters is scanned whole and not kept.
    const huge = session(['huge', 'x'.repeat(1_100_000)]);
    const before = rawKeyMemoSize();
    expect(rawKeyCount(huge, 'huge-session')).toBe(rawKeyCount(huge));
    expect(rawKeyMemoSize()).toEqual(before);
  });
});

describe('commonPrefix and commonSuffix', () => {
  test.each([
    ['abc', 'abd', 2, 0],
    ['same', 'same', 4, 0],
    ['', 'x', 0, 0],
    [`${'x'.repeat(1000)}A${'y'.repeat(500)}`, `${'x'.repeat(1000)}BB${'y'.repeat(500)}`, 1000, 500],
    ['aaaa', 'aa', 2, 0],
  ])('%#', (a, b, prefix, suffix) => {
    expect(commonPrefix(a, b)).toBe(prefix);
    expect(commonSuffix(a, b, prefix)).toBe(suffix);
  });
});
