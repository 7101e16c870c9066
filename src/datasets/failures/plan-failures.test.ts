import { describe, expect, test } from 'vitest';
import type { EvalCase } from '../../core/case.js';
import { IsobudgetError, IsobudgetErrors } from '../../core/errors.js';
import { normalizedInput } from '../splits.js';
import { parseFailureEvents, type FailureEvent } from './failure-events.js';
import { planFailures, splitOf } from './plan-failures.js';

const SHARES = { train: 0.5, val: 0.25, test: 0.25 };

function event(input: string, over: Partial<FailureEvent> = {}): FailureEvent {
  return { input, expected: 'x', category: undefined, caseId: undefined, passed: false, feedback: undefined, n: 1, budget: 200000, tokens: 900, time: 0, variant: undefined, line: 1, ...over };
}

function existing(id: string, input: string): EvalCase {
  return { id, input, messages: undefined, expected: 'y', reference: undefined, category: undefined, tags: [], cluster: undefined, metadata: {}, source: { file: 'val.jsonl', line: 1 } };
}

const plan = (events: FailureEvent[], cases: EvalCase[] = [], judged = false) => planFailures({ events, existing: cases, shares: SHARES, judged, source: 'events.jsonl' });

describe('planFailures', () => {
  test('1,000 failures split by a stable hash within ±5% of the shares, no input in two splits', () => {
    const events = Array.from({ length: 1000 }, (_, i) => event(`Normalize this date: request number ${i}`));
    const result = plan(events);
    const total = result.rows.train.length + result.rows.val.length + result.rows.test.length;
    expect(total).toBe(1000);
    expect(Math.abs(result.rows.train.length / 1000 - 0.5)).toBeLessThanOrEqual(0.05);
    expect(Math.abs(result.rows.val.length / 1000 - 0.25)).toBeLessThanOrEqual(0.05);
    expect(Math.abs(result.rows.test.length / 1000 - 0.25)).toBeLessThanOrEqual(0.05);
    const inputs = [...result.rows.train, ...result.rows.val, ...result.rows.test].map((r) => r.input.toLowerCase());
    expect(new Set(inputs).size).toBe(inputs.length);
    // Stable: the same input always lands in the same split, whatever else is in the file.
    const again = plan([...events].reverse().slice(0, 300));
    for (const split of ['train', 'val', 'test'] as const) for (const row of again.rows[split]) expect(splitOf(row.input.toLowerCase(), SHARES)).toBe(split);
  });

  test('a failure at n=1 that passed at n=8 is tagged sampling and goes to train only', () => {
    const events = Array.from({ length: 200 }, (_, i) => [event(`task ${i}`, { caseId: `t${i}`, n: 1, passed: false }), event(`task ${i}`, { caseId: `t${i}`, n: 8, passed: true })]).flat();
    const result = plan(events);
    expect(result.sampling).toBe(200);
    expect(result.rows.train).toHaveLength(200);
    expect(result.rows.val.length + result.rows.test.length).toBe(0);
    expect(result.rows.train.every((r) => r.tags.includes('sampling'))).toBe(true);
    // Still failing at n=8: a capability problem, split as usual.
    const persistent = plan([event('hard one', { caseId: 'h', n: 1 }), event('hard one', { caseId: 'h', n: 8, passed: false })]);
    expect(persistent.sampling).toBe(0);
  });

  test('each case keeps the budget and n of its failure (its smallest failing n)', () => {
    const result = plan([event('a task', { caseId: 'a', n: 8, budget: 400000 }), event('a task', { caseId: 'a', n: 4, budget: 300000, time: Date.UTC(2026, 5, 1) })]);
    const row = [...result.rows.train, ...result.rows.val, ...result.rows.test][0];
    expect(row?.metadata.failure).toMatchObject({ budget: 300000, n: 4, case_id: 'a', time: '2026-06-01T00:00:00.000Z' });
    expect(row?.metadata.failures).toBe(2);
  });

  test('duplicates of any existing split (by normalized input) and of each other are dropped', () => {
    const cases = [existing('v1', 'Normalize   THIS date: 03/04/2021')];
    const result = plan([event('normalize this date: 03/04/2021'), event('New  task'), event('new task')], cases);
    expect(result.duplicates).toBe(1);
    const added = [...result.rows.train, ...result.rows.val, ...result.rows.test];
    expect(added).toHaveLength(1);
    expect(normalizedInput(existing('x', added[0]?.input ?? ''))).toBe('new task');
  });

  test('without an expected answer a case needs a judge; tasks that never failed are not cases', () => {
    expect(plan([event('no answer known', { expected: undefined })]).noExpected).toBe(1);
    expect(plan([event('no answer known', { expected: undefined })], [], true).noExpected).toBe(0);
    expect(plan([event('fine', { passed: true })]).neverFailed).toBe(1);
    expect(plan([event('bad feedback', { passed: undefined, feedback: 'negative' })]).neverFailed).toBe(0);
  });
});

describe('parseFailureEvents', () => {
  test('bad lines name the file, the line and the key', () => {
    const text = ['{"input":"a","passed":false,"n":1,"budget":100}', '{"passed":false,"n":1,"budget":100}', '{"input":"b","n":0,"budget":100,"passed":false}', 'not json'].join('\n');
    let error: unknown;
    try {
      parseFailureEvents(text, 'events.jsonl');
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(IsobudgetErrors);
    const lines = (error as IsobudgetErrors).errors.map((e) => `${e.location?.line}:${e.location?.key ?? ''}`);
    expect(lines).toEqual(['2:input', '3:n', '4:']);
    expect(() => parseFailureEvents('', 'empty.jsonl')).toThrow(IsobudgetError);
  });
});
