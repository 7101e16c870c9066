import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import type { EvalCase } from '../core/case.js';
import { countTokens } from '../core/tokens.js';
import { unifiedDiff } from '../memory/unified-diff.js';
import { checkProposal, type CheckContext } from './check-proposal.js';
import { addedLines, directionWords, overlap } from './direction.js';

const V1 = readFileSync(new URL('../../examples/evolve-date-parser/skills/date-parser.md', import.meta.url), 'utf8');
const LEAK = '- When a date can be read more than one way, try several readings and pick one: diversify the reading on each attempt.';

/** V1 with `lines` added under its rules and the version set. */
function edited(lines: string[], version = '2', base = V1): string {
  const text = base.replace(/^version: .*$/m, `version: ${version}`);
  return text.replace('- Pad single-digit months and days with a leading zero.', ['- Pad single-digit months and days with a leading zero.', ...lines].join('\n'));
}

function proposal(after: string, before = V1) {
  return { slot: 1, summary: 's', diff: unifiedDiff(before, after, { from: 'SKILL.md', to: 'SKILL.md' }) };
}

function valCase(id: string, input: string, expected: string): EvalCase {
  return { id, input, messages: undefined, expected, reference: undefined, category: undefined, tags: [], cluster: undefined, metadata: {}, source: { file: 'val.jsonl', line: 1 } };
}

const context = (over: Partial<CheckContext> = {}): CheckContext => ({
  skillName: 'date-parser', incumbent: { version: '1', text: V1 }, expectedVersion: '2', startTokens: countTokens(V1), maxGrowth: 1.25,
  heldOut: [{ split: 'val', cases: [valCase('v-1', 'Normalize this date to ISO 8601 (YYYY-MM-DD): 03/04/2021', '2021-03-04')] }],
  contaminationMinChars: 8, earlier: [], negatives: [], ...over,
});

describe('checkProposal: every check, in order', () => {
  test('a rule line that applies, bumps the version and stays small passes', () => {
    const result = checkProposal(proposal(edited(['- Ordinal dates (`YYYY-DDD`): day of the year.'])), context());
    expect(result).toMatchObject({ ok: true, version: '2' });
  });

  test.each([
    ['no_diff', { slot: 1, summary: 's', diff: undefined }, context()],
    ['does_not_apply', { slot: 1, summary: 's', diff: '@@ -3 +3,2 @@\n - a line the skill does not have\n+- x\n' }, context()],
    ['front_matter', proposal(edited(['- x y z']).replace('name: date-parser', 'name: Date Parser')), context()],
    ['front_matter', proposal(edited(['- x y z']).replace('name: date-parser', 'name: other-skill')), context()],
    ['version', proposal(edited(['- x y z'], '1')), context()],
    ['version', proposal(edited(['- x y z'], '7')), context()],
    ['growth', proposal(edited(Array.from({ length: 12 }, (_, i) => `- filler rule number ${i} with several more words in it`))), context()],
    ['contamination', proposal(edited(['- e.g. `03/04/2021` → 2021-03-04'])), context()],
    ['no_change', proposal(V1.replace('version: 1', 'version: 2')), context()],
  ])('%s', (code, candidate, ctx) => {
    const result = checkProposal(candidate, ctx);
    expect(result.ok).toBe(false);
    expect(!result.ok && result.code).toBe(code);
  });

  test('the growth limit is the starting skill\'s tokens × max_skill_growth, whatever the incumbent', () => {
    const padded = edited(['- padding words here and there'], '2');
    const ok = checkProposal(proposal(edited(['- one more rule line'], '3', padded), padded), context({ incumbent: { version: '2', text: padded }, expectedVersion: '3' }));
    expect(ok.ok).toBe(true);
    const strict = checkProposal(proposal(edited(['- one more rule line'], '3', padded), padded), context({ incumbent: { version: '2', text: padded }, expectedVersion: '3', maxGrowth: 1.01 }));
    expect(!strict.ok && strict.reason).toMatch(/grows to \d+ tokens, over \d+ \(1\.01 × the starting \d+\)/);
  });
});

describe('repeats and negative directions (direction.ts)', () => {
  const negative = { memoryId: 'mem-leak-001', words: directionWords([LEAK]) };

  test('the leakage direction, reworded and shortened, is refused as the negative pattern it repeats', () => {
    const reworded = '- Diversify: on each attempt pick a different reading of an ambiguous date.';
    const result = checkProposal(proposal(edited([reworded])), context({ negatives: [negative] }));
    expect(!result.ok && result.code).toBe('negative_direction');
    expect(!result.ok && result.reason).toContain('mem-leak-001');
  });

  test('different rules are not repeats of each other, even when they share the skill\'s own words', () => {
    const iso = '- ISO week dates (`YYYY-Www-D`): week 1 is the week that holds the year\'s first Thursday; day 1 = Monday.';
    const dot = '- Dotted dates are `DD.MM.YYYY`: day first.';
    const earlier = [{ label: 'round 1 version 2', words: directionWords([iso]), body: undefined }];
    expect(checkProposal(proposal(edited([dot])), context({ earlier, negatives: [negative] })).ok).toBe(true);
    // Raw words would have called it a repeat: 4 of the dot line's 5 words are in the ISO line.
    expect(overlap(directionWords([dot]), directionWords([iso]))).toBeGreaterThanOrEqual(0.8);
  });

  test('the same rule proposed again, reworded, is a repeat; the same resulting skill is a repeat', () => {
    const slash = '- Slash dates are `MM/DD/YYYY`: month first.';
    const earlier = [{ label: 'round 1 version 3', words: directionWords(addedLines(proposal(edited([slash])).diff)), body: undefined }];
    const again = checkProposal(proposal(edited(['- Read slash dates as `MM/DD/YYYY`, month first.'])), context({ earlier }));
    expect(!again.ok && again.code).toBe('repeat');
    const sameText = checkProposal(proposal(edited([slash])), context({ earlier: [{ label: 'round 1 version 3', words: new Set(), body: edited([slash]).split('---\n').slice(2).join('---\n').trim() }] }));
    expect(!sameText.ok && sameText.reason).toContain('same skill as round 1 version 3');
  });
});
