import { describe, expect, test } from 'vitest';
import type { EvalCase } from '../core/case.js';
import { effectivePolicy, policyChanges, describeChange } from './budget-policy.js';
import { findContamination } from './contamination.js';
import { formatLayer } from './format-layer.js';
import { checkSkillFile } from './skill-file.js';
import type { ExperimentConfig } from '../config/types.js';

const skill = (front: string, body = '# Rules\nDo it well.\n'): string => `---\n${front}\n---\n${body}`;
const evalCase = (id: string, input: string, expected: unknown): EvalCase => ({ id, input, messages: undefined, expected, reference: undefined, category: undefined, tags: [], cluster: undefined, metadata: {}, source: { file: 't', line: 1 } });
const tests = [evalCase('date-test-0001', 'Rewrite this date as YYYY-MM-DD: November 7, 1957', '1957-11-07'), evalCase('n1', 'Give a three-digit number', { digits: 3, digit_sum: 12 })];

describe('layer 1: the skill file', () => {
  test('name, description and version are required and named when missing', () => {
    expect(checkSkillFile(skill('name: date-parser\ndescription: Normalize dates.\nversion: 3'), 's.md').problems).toEqual([]);
    expect(checkSkillFile(skill('name: date-parser\nversion: 3'), 's.md').problems).toEqual(['s.md: front matter `description`: missing (required)']);
    expect(checkSkillFile(skill('name: Date Parser\ndescription: x\nversion: three'), 's.md').problems).toEqual([
      's.md: front matter `name`: must be lowercase letters, digits and hyphens (at most 64), e.g. date-parser',
      's.md: front matter `version`: must be a positive integer or a semantic version, e.g. 3 or 1.2.0',
    ]);
    expect(checkSkillFile('# no front matter\n', 's.md').problems[0]).toContain('no front matter');
    expect(checkSkillFile(skill('name: a\ndescription: b\nversion: 1.2.0', ''), 's.md').problems[0]).toContain('no instructions');
  });

  test('a declared policy is validated strictly', () => {
    expect(checkSkillFile(skill('name: a\ndescription: b\nversion: 1\npolicy: { best_of_n: 8, retries: 3 }'), 's.md').policy).toEqual({ best_of_n: 8, retries: 3 });
    expect(checkSkillFile(skill('name: a\ndescription: b\nversion: 1\npolicy: { best_of: 8 }'), 's.md').problems[0]).toContain('front matter `policy`');
  });
});

describe('layer 1: contamination', () => {
  test('a skill holding a test case\'s expected output verbatim fails layer 1, naming the case', () => {
    const text = skill('name: date-parser\ndescription: d\nversion: 4', '## Examples\n- `November 7, 1957` → 1957-11-07\n');
    const result = formatLayer({ configProblems: [], skill: { text, file: 'v4.md' }, testCases: tests, regressionCases: undefined, minChars: 8 });
    expect(result.outcome.status).toBe('failed');
    expect(result.outcome.summary).toContain('contaminated: the skill contains 1 test/regression string verbatim (test case date-test-0001 expected "1957-11-07")');
  });

  test('inputs count too, whitespace is collapsed; short answers are skipped and counted', () => {
    const report = findContamination('Example:   Rewrite this date as\nYYYY-MM-DD: November 7, 1957', [{ split: 'test', cases: tests }]);
    expect(report.hits.map((h) => [h.case_id, h.field])).toEqual([['date-test-0001', 'input']]);
    expect(report.skipped_short).toBe(2); // "3" and "12" from the structured answer
    const clean = formatLayer({ configProblems: [], skill: { text: skill('name: a\ndescription: b\nversion: 1'), file: 'a.md' }, testCases: tests, regressionCases: undefined, minChars: 8 });
    expect(clean.outcome.status).toBe('passed');
    expect(clean.outcome.summary).toContain('3 test/regression strings checked, 2 too short to check');
  });

  test('config problems and a missing test split fail layer 1', () => {
    expect(formatLayer({ configProblems: ['e.yaml:3: budget: bad'], skill: undefined, testCases: undefined, regressionCases: undefined, minChars: 8 }).outcome.summary).toBe('config invalid: e.yaml:3: budget: bad');
    expect(formatLayer({ configProblems: [], skill: { text: skill('name: a\ndescription: b\nversion: 1'), file: 'a.md' }, testCases: undefined, regressionCases: undefined, minChars: 8 }).outcome.summary).toContain('no test split');
  });
});

describe('budget policy', () => {
  const config = { budget: { totalTokensPerCase: 200000, perCaseMaxTokens: 4096 }, retries: { maxAttempts: 5 } } as unknown as ExperimentConfig;
  test('n 1→8, retries 1→3 and a larger max_tokens are all changes', () => {
    const changes = policyChanges(effectivePolicy(config, undefined), effectivePolicy(config, { best_of_n: 8, retries: 3, max_tokens: 8192 }));
    expect(changes.map(describeChange)).toEqual(['best_of_n 1 → 8 (Best-of-N switched on)', 'retries 1 → 3 (more spend allowed)', 'max_tokens 4096 → 8192 (more spend allowed)']);
    expect(policyChanges(effectivePolicy(config, undefined), effectivePolicy(config, { budget: 200000 }))).toEqual([]);
  });
});
