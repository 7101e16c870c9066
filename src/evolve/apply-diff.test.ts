import { describe, expect, test } from 'vitest';
import { unifiedDiff } from '../memory/unified-diff.js';
import { createRng } from '../stats/index.js';
import { applyUnifiedDiff } from './apply-diff.js';

const SKILL = ['---', 'name: s', 'description: d', 'version: 1', '---', '# Title', '', '## Rules', '- a', '- b', '- c', '', '## Examples', '- x', '- y', ''].join('\n');

describe('applyUnifiedDiff', () => {
  test('applies what unifiedDiff writes, for random edits (round trip)', () => {
    const rng = createRng(11);
    for (let trial = 0; trial < 200; trial += 1) {
      const before = Array.from({ length: 1 + rng.int(30) }, () => `line ${rng.int(12)}`);
      const after = [...before];
      for (let edit = 0; edit < 1 + rng.int(5); edit += 1) {
        const at = rng.int(after.length + 1);
        if (rng.next() < 0.4 && after.length > 0) after.splice(Math.min(at, after.length - 1), 1);
        else if (rng.next() < 0.5) after.splice(at, 0, `new ${trial}-${edit}`);
        else if (after.length > 0) after[Math.min(at, after.length - 1)] = `changed ${trial}-${edit}`;
      }
      const a = `${before.join('\n')}\n`;
      const b = after.length === 0 ? '' : `${after.join('\n')}\n`;
      const diff = unifiedDiff(a, b, { from: 'a', to: 'b' });
      if (diff === '') continue;
      expect(applyUnifiedDiff(a, diff)).toEqual({ ok: true, text: b });
    }
  });

  test('a hunk with wrong line numbers applies where its context is (the nearest match)', () => {
    const diff = ['--- SKILL.md', '+++ SKILL.md', '@@ -2,3 +2,4 @@', ' - b', ' - c', '+- d', ' '].join('\n');
    const result = applyUnifiedDiff(SKILL, diff);
    expect(result.ok && result.text.split('\n').slice(8, 13)).toEqual(['- a', '- b', '- c', '- d', '']);
  });

  test('counts in the header are not trusted, trailing spaces are not compared', () => {
    const diff = ['@@ -9,99 +9,1 @@', ' - a   ', '-- b', '+- B'].join('\n');
    const result = applyUnifiedDiff(SKILL, diff);
    expect(result.ok && result.text).toContain('- a\n- B\n- c');
  });

  test('context that is not in the text fails with the hunk number and the line', () => {
    const diff = ['@@ -9,2 +9,3 @@', ' - a', '+- new', ' - zzz'].join('\n');
    expect(applyUnifiedDiff(SKILL, diff)).toEqual({ ok: false, reason: 'hunk 1 does not apply: its context ("- a"…) is not in the skill' });
  });

  test('hunks must apply in order, and a diff needs a hunk that changes something', () => {
    const outOfOrder = ['@@ -13 +13,2 @@', ' ## Examples', '+- z', '@@ -9 +10,2 @@', ' - a', '+- a2'].join('\n');
    expect(applyUnifiedDiff(SKILL, outOfOrder)).toMatchObject({ ok: false, reason: expect.stringContaining('after the previous hunk') });
    expect(applyUnifiedDiff(SKILL, 'just prose, no diff')).toMatchObject({ ok: false, reason: expect.stringContaining('before the first @@') });
    expect(applyUnifiedDiff(SKILL, '@@ -9 +9 @@\n - a\n')).toMatchObject({ ok: false, reason: 'hunk 1 changes nothing' });
  });
});
