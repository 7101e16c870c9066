import { describe, expect, test } from 'vitest';
import { createRng } from '../stats/rng.js';
import { diffLines, splitLines, unifiedDiff } from './unified-diff.js';

/** Applies a unified diff (as `patch` would) so the round trip can be checked. */
function applyUnified(before: string, patch: string): string {
  const source = splitLines(before);
  const out: string[] = [];
  let at = 0;
  const lines = splitLines(patch).slice(2);
  for (let i = 0; i < lines.length; i++) {
    const header = /^@@ -(\d+)(?:,(\d+))? \+\d+(?:,\d+)? @@$/.exec(lines[i] ?? '');
    if (!header) throw new Error(`bad hunk header: ${lines[i]}`);
    const count = header[2] === undefined ? 1 : Number(header[2]);
    const start = count === 0 ? Number(header[1]) : Number(header[1]) - 1;
    while (at < start) out.push(source[at++] ?? '');
    while (i + 1 < lines.length && !(lines[i + 1] ?? '').startsWith('@@')) {
      const line = lines[++i] ?? '';
      const body = line.slice(1);
      if (line[0] === ' ') {
        expect(source[at]).toBe(body);
        out.push(body);
        at++;
      } else if (line[0] === '-') {
        expect(source[at]).toBe(body);
        at++;
      } else out.push(body);
    }
  }
  while (at < source.length) out.push(source[at++] ?? '');
  return out.length === 0 ? '' : `${out.join('\n')}\n`;
}

describe('unified diff', () => {
  test('equal texts give an empty diff', () => {
    expect(unifiedDiff('a\nb\n', 'a\nb\n', { from: 'x', to: 'y' })).toBe('');
  });

  test('a skill edit reads like diff -u', () => {
    const before = ['# Rules', '- slash dates are US style', '- dots are European', '', '## Examples', '- March 4 → 2021-03-04', ''].join('\n');
    const after = ['# Rules', '- slash dates are US style', '- dots are European', '- two-digit years: 00–49 → 20xx', '', '## Examples', '- March 4 → 2021-03-04', ''].join('\n');
    expect(unifiedDiff(before, after, { from: 'v2', to: 'v3' })).toBe(
      ['--- v2', '+++ v3', '@@ -1,6 +1,7 @@', ' # Rules', ' - slash dates are US style', ' - dots are European', '+- two-digit years: 00–49 → 20xx', ' ', ' ## Examples', ' - March 4 → 2021-03-04', ''].join('\n'),
    );
  });

  test('far-apart changes make separate hunks; empty sides use GNU ranges', () => {
    const before = Array.from({ length: 20 }, (_, i) => `line ${i + 1}`).join('\n');
    const after = before.replace('line 2\n', 'line two\n').replace('line 19', 'line nineteen');
    const patch = unifiedDiff(before, after, { from: 'a', to: 'b' });
    expect(patch.match(/^@@/gm)).toHaveLength(2);
    expect(patch).toContain('@@ -1,5 +1,5 @@');
    expect(patch).toContain('@@ -16,5 +16,5 @@');
    expect(unifiedDiff('', 'new\n', { from: 'a', to: 'b' })).toBe('--- a\n+++ b\n@@ -0,0 +1 @@\n+new\n');
    expect(unifiedDiff('old\n', '', { from: 'a', to: 'b' })).toBe('--- a\n+++ b\n@@ -1 +0,0 @@\n-old\n');
  });

  test('the edit script is minimal for a known case (ABCABBA → CBABAC has D = 5)', () => {
    const ops = diffLines([...'ABCABBA'], [...'CBABAC']);
    expect(ops.filter((op) => op.kind !== ' ')).toHaveLength(5);
  });

  test('random edits round-trip through the patch', () => {
    const rng = createRng(42);
    for (let round = 0; round < 200; round++) {
      const alphabet = ['a', 'b', 'c', 'd', ''];
      const pick = (): string => alphabet[Math.floor(rng.next() * alphabet.length)] ?? 'a';
      const before = Array.from({ length: Math.floor(rng.next() * 30) }, pick);
      const after = before.flatMap((line) => (rng.next() < 0.15 ? [] : rng.next() < 0.15 ? [line, pick()] : rng.next() < 0.1 ? [pick()] : [line]));
      const a = before.length ? `${before.join('\n')}\n` : '';
      const b = after.length ? `${after.join('\n')}\n` : '';
      const patch = unifiedDiff(a, b, { from: 'a', to: 'b' }, round % 4);
      expect(patch === '' ? a : applyUnified(a, patch)).toBe(b);
    }
  });
});
