import { describe, expect, test } from 'vitest';
import type { EvalCase } from '../core/case.js';
import { collectErrors } from '../test-support/config-helpers.js';
import { parseConfigText } from '../config/load.js';
import { createScorer } from './registry.js';

const GSM8K = '#### *(-?[\\d,.]+)\\s*$';
const makeCase = (expected: unknown): EvalCase => ({ id: 'c1', input: 'q', messages: undefined, expected, reference: undefined, category: undefined, tags: [], cluster: undefined, metadata: {}, source: { file: 't.jsonl', line: 1 } });

describe('scorer.expected_pattern', () => {
  test('numeric: the first group of the GSM8K answer is the expected number (commas too)', async () => {
    const scorer = createScorer({ type: 'numeric', tolerance: 1e-6, relative: false, expectedPattern: GSM8K });
    const answer = 'She sold 48 / 2 = 24 in May.\nAltogether 48 + 24 = 72.\n#### 72';
    expect(await scorer.score({ output: 'Answer: 72', evalCase: makeCase(answer) })).toMatchObject({ passed: true });
    // Without the pattern the numeric scorer cannot read the worked solution at all.
    expect((await createScorer({ type: 'numeric', tolerance: 1e-6, relative: false }).score({ output: '72', evalCase: makeCase(answer) })).error).toMatch(/is not a number/);
    expect(await scorer.score({ output: 'Answer: 24', evalCase: makeCase(answer) })).toMatchObject({ passed: false });
    expect(await scorer.score({ output: '1234', evalCase: makeCase('so\n#### 1,234\n') })).toMatchObject({ passed: true });
    expect(scorer.version).toMatch(/\+expected_pattern$/);
  });

  test('exact with field: the pattern reads the field, the scorer compares the group', async () => {
    const scorer = createScorer({ type: 'exact', field: 'text', expectedPattern: 'answer: (\\w+)' });
    expect(await scorer.score({ output: 'Paris', evalCase: makeCase({ text: 'the answer: Paris' }) })).toMatchObject({ passed: true });
  });

  test('an expected text that does not match is a scorer error naming the case and the pattern', async () => {
    const score = await createScorer({ type: 'numeric', tolerance: 0, relative: false, expectedPattern: GSM8K }).score({ output: '3', evalCase: makeCase('no marker here') });
    expect(score).toMatchObject({ passed: false });
    expect(score.error).toBe('case c1: expected "no marker here" does not match scorer.expected_pattern /#### *(-?[\\d,.]+)\\s*$/ (or its first group is empty)');
  });

  test('config: accepted on numeric with datasets.fields; a pattern without a group or an invalid one is a config error with a fix', async () => {
    const yaml = (scorer: string): string => `experiment: demo\nprovider: { preset: sim }\nmodels: { candidate: m }\ndatasets: { val: val.jsonl, fields: { input: question, expected: answer, id: meta.id } }\nscorer: ${scorer}\n`;
    const config = parseConfigText(yaml(`{ type: numeric, expected_pattern: '${GSM8K}' }`), '/x/e.yaml');
    expect(config.scorer).toMatchObject({ type: 'numeric', expectedPattern: GSM8K });
    expect(config.datasets.fields).toEqual({ input: 'question', expected: 'answer', id: 'meta.id' });
    const [noGroup] = await collectErrors(() => parseConfigText(yaml("{ type: numeric, expected_pattern: '#### \\d+' }"), '/x/e.yaml'));
    expect(noGroup?.format()).toMatch(/^\/x\/e\.yaml:5(:\d+)?: scorer\.expected_pattern: has no capturing group: the first group is the expected value\n {2}hint: wrap the answer in parentheses/);
    const [invalid] = await collectErrors(() => parseConfigText(yaml("{ type: numeric, expected_pattern: '(' }"), '/x/e.yaml'));
    expect(invalid?.format()).toMatch(/scorer\.expected_pattern: invalid regular expression/);
    const [badField] = await collectErrors(() => parseConfigText(yaml('numeric').replace('id: meta.id', 'id: "a..b"'), '/x/e.yaml'));
    expect(badField?.format()).toMatch(/datasets\.fields\.id: must be a key or a dotted path/);
  });
});
