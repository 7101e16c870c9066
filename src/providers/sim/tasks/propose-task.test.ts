import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { countTokens } from '../../../core/tokens.js';
import { applyUnifiedDiff } from '../../../evolve/apply-diff.js';
import { parseProposals } from '../../../evolve/parse-proposals.js';
import { proposerMessages, type ProposerRequest } from '../../../evolve/proposer-input.js';
import type { Diagnosis, FailureExample } from '../../../evolve/types.js';
import { simulate } from '../engine.js';
import { readDateRules } from './date-rules.js';
import { LEAKAGE_LINE } from './propose-directions.js';
import { readStyleRules } from '../style-rules.js';

const V1 = readFileSync(new URL('../../../../examples/evolve-date-parser/skills/date-parser.md', import.meta.url), 'utf8');

function failure(input: string, expected: string, category: string): FailureExample {
  return { case_id: `t-${input.length}-${expected}`, source: 'train', category, input: `Normalize this date to ISO 8601 (YYYY-MM-DD): ${input}`, expected, output: 'x', reason: 'wrong_answer', finish_reason: 'stop' };
}

const FAILURES = [
  failure('1979-W30-4', '1979-07-26', 'iso-week'), failure('1952-W48-4', '1952-11-27', 'iso-week'), failure('1970-W48-1', '1970-11-23', 'iso-week'),
  failure('2012-347', '2012-12-12', 'ordinal-date'), failure('04/09/2017', '2017-04-09', 'us-slash'), failure('07.06.1980', '1980-06-07', 'eu-dot'),
];

function request(over: Partial<ProposerRequest> = {}): ProposerRequest {
  const diagnosis: Diagnosis = { schema_version: 1, round: 1, incumbent_version: '1', run_dir: 'r', cases: 60, passed: 30, pass_rate: 0.5, modes: [], examples: FAILURES, production: null };
  return { skillName: 'date-parser', incumbent: { version: '1', text: V1 }, versions: ['2', '3'], maxTokens: 326, startTokens: 261, maxGrowth: 1.25, recall: { negatives: [], skills: [], tried: [] }, diagnosis, ...over };
}

function propose(model: string, over: Partial<ProposerRequest> = {}): Array<{ summary: string; text: string }> {
  const reply = simulate({ model, messages: proposerMessages(request(over)), maxTokens: 4096, temperature: 0.7, n: 1 }, { seed: 7 });
  expect(reply.task).toBe('propose');
  return parseProposals(reply.choices[0]?.text ?? '').map((p) => {
    const applied = applyUnifiedDiff(V1, p.diff ?? '');
    if (!applied.ok) throw new Error(applied.reason);
    return { summary: p.summary, text: applied.text };
  });
}

describe('sim-proposer', () => {
  test('reads the failures it is shown: the most frequent family without a rule first, then "try several readings"', () => {
    const [first, second] = propose('sim-proposer');
    expect(first?.summary).toContain('ISO week dates');
    expect(readDateRules(first?.text ?? '').isoWeek).toBe('iso');
    expect(first?.text).toMatch(/^version: 2$/m);
    expect(second?.text).toContain(LEAKAGE_LINE);
    expect(readStyleRules(second?.text ?? '').diversify).toBe(true);
    expect(readStyleRules(first?.text ?? '').diversify).toBe(false);
  });

  test('infers the rule the expected answers follow (slash month first, dots day first)', () => {
    const proposals = propose('sim-proposer', { versions: ['2', '3', '4', '5', '6'] });
    const rules = proposals.map((p) => readDateRules(p.text));
    expect(rules.some((r) => r.slash?.join('') === 'MDY')).toBe(true);
    expect(rules.some((r) => r.dot?.join('') === 'DMY')).toBe(true);
    expect(rules.some((r) => r.ordinalDate)).toBe(true);
  });

  test('skips a direction its memory lists as a negative pattern, and what was tried before', () => {
    const negatives = [{ memoryId: 'mem-1', pattern: 'p', reason: 'r', verdict: 'budget_leakage', n: 4, bestofnRatio: 1.1, direction: [LEAKAGE_LINE] }];
    const proposals = propose('sim-proposer', { recall: { negatives, skills: [], tried: [] }, versions: ['2', '3', '4', '5', '6'] });
    expect(proposals.length).toBeGreaterThan(1);
    expect(proposals.some((p) => p.text.includes(LEAKAGE_LINE) || readStyleRules(p.text).diversify)).toBe(false);
  });

  test('stays within the size limit it is given, by dropping example lines', () => {
    const proposals = propose('sim-proposer', { maxTokens: 280 });
    for (const p of proposals) expect(countTokens(p.text)).toBeLessThanOrEqual(280);
    expect(proposals[0]?.summary).toContain('drops');
  });
});

describe('sim-proposer-null', () => {
  test('makes cosmetic edits no simulated task reads', () => {
    const proposals = propose('sim-proposer-null', { versions: ['2', '3', '4'] });
    expect(proposals).toHaveLength(3);
    for (const p of proposals) {
      expect(readDateRules(p.text)).toEqual(readDateRules(V1));
      expect(readStyleRules(p.text)).toEqual(readStyleRules(V1));
      expect(p.text).not.toBe(V1);
    }
    expect(new Set(proposals.map((p) => p.text)).size).toBe(3);
  });

  test('a cosmetic edit changes no output of the simulator, case by case', () => {
    const [edit] = propose('sim-proposer-null');
    for (const f of FAILURES) {
      const ask = (skill: string) => simulate({ model: 'sim-small', messages: [{ role: 'system', content: skill }, { role: 'user', content: f.input }], maxTokens: 64, temperature: 0.2, n: 4 }, { seed: 7 }).choices.map((c) => c.text);
      expect(ask(edit?.text ?? '')).toEqual(ask(V1));
    }
  });

  test('only the proposer models answer an edit request', () => {
    const reply = simulate({ model: 'sim-small', messages: proposerMessages(request()), maxTokens: 256, temperature: 0.7, n: 1 }, { seed: 7 });
    expect(reply.task).not.toBe('propose');
  });
});
