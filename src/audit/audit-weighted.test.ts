/**
 * The team database sends the audit its tasks summed per UTC hour and kind (`count`, and sums
 * of tokens, retries and cost): the audit of those rows must be the audit of the tasks one by
 * one, measure for measure.
 */
import { describe, expect, test } from 'vitest';
import { auditLedgers, type AuditSettings } from './audit.js';
import type { AuditData, AuditTask } from './ledger-rows.js';

const HOUR = 3_600_000;
const SINCE = Date.UTC(2026, 0, 5);

/** A small LCG: the same tasks on every run. */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => ((s = (Math.imul(s, 1_664_525) + 1_013_904_223) >>> 0) / 2 ** 32);
}

/** Tasks over ten weeks, several an hour, of every kind the audit tells apart; tokens rising. */
function tasks(seed: number): AuditTask[] {
  const r = rng(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)] as T;
  return Array.from({ length: 900 }, (_, i): AuditTask => {
    const hour = Math.floor(r() * 10) * 7 * 24 + pick([9, 10, 14]);
    const tokens = pick<number | undefined | null>([undefined, null, 1, 2, 3, 4].map((k) => (typeof k === 'number' ? k * (200 + Math.floor(hour / 24) * 5 + Math.floor(r() * 50)) : k)) as Array<number | undefined | null>);
    return {
      time: SINCE + hour * HOUR + Math.floor(r() * HOUR),
      source: i % 7 === 0 ? 'gateway' : 'run',
      tokens: tokens as number | undefined,
      n: pick([1, 1, 1, 4]),
      retries: pick([0, 0, 0, 1, 2]),
      passed: i % 7 === 0 ? undefined : r() < 0.5 + hour / 5000,
      budget: pick([2000, 2000, 1000, undefined]),
      split: pick(['val', 'val', 'regression']),
      // Eighths of a dollar: exact in binary, so sums in any order agree to the last digit.
      costUsd: pick([undefined, 0.125, 0.25, 1.5]),
    };
  });
}

/** The tasks summed per UTC hour and kind, as readAuditFromDatabase gets them from SQL. */
function summed(list: readonly AuditTask[]): AuditTask[] {
  const groups = new Map<string, AuditTask & { count: number }>();
  for (const t of list) {
    const hour = Math.floor(t.time / HOUR) * HOUR;
    const key = JSON.stringify([hour, t.source, t.n, t.passed ?? 'none', t.split, t.budget ?? 'none', t.tokens === undefined, t.costUsd === undefined]);
    const g = groups.get(key);
    if (!g) groups.set(key, { ...t, time: hour, tokens: t.tokens === undefined ? undefined : (t.tokens ?? 0), count: 1 });
    else {
      g.count += 1;
      g.retries += t.retries;
      if (g.tokens !== undefined) g.tokens += t.tokens ?? 0;
      if (g.costUsd !== undefined) g.costUsd += t.costUsd ?? 0;
    }
  }
  return [...groups.values()];
}

const data = (list: AuditTask[]): AuditData => ({ tasks: list, calls: [{ time: SINCE, completion: 100, outputs: 1 }], runs: 3, gatewayFiles: 1, outside: 0 });

describe('weighted task rows', () => {
  for (const [unit, budget] of [['week', undefined], ['month', undefined], ['week', 1000]] as Array<[AuditSettings['unit'], number | undefined]>) {
    test(`rows of count k and summed fields audit as k tasks (by ${unit}, budget ${budget ?? 'modal'})`, () => {
      const one = tasks(7);
      const rows = summed(one);
      expect(rows.length).toBeLessThan(one.length);
      expect(rows.some((t) => (t.count ?? 1) > 2)).toBe(true);
      const settings: AuditSettings = { since: SINCE, until: SINCE + 10 * 7 * 24 * HOUR, unit, budget, minPeriods: 3 };
      const byTask = auditLedgers(data(one), settings);
      expect(auditLedgers(data(rows), settings)).toEqual(byTask);
      expect(byTask.sources.tasks).toBe(900);
      expect(byTask.periods.some((p) => p.tasksPriced < p.tasks && p.passTasks > 0 && (p.values.bestofn_rate ?? 0) > 0)).toBe(true);
    });
  }

  test('the modal budget counts tasks, not rows', () => {
    // Budget 1000 in three rows of one task each, budget 2000 in one row of five tasks.
    const base: AuditTask = { time: SINCE, source: 'run', tokens: 10, n: 1, retries: 0, passed: true, budget: 1000, split: 'val', costUsd: undefined };
    const list = [base, { ...base, passed: false }, { ...base, time: SINCE + HOUR }, { ...base, budget: 2000, tokens: 50, count: 5 }];
    const result = auditLedgers(data(list), { since: SINCE, until: SINCE + 7 * 24 * HOUR, unit: 'week' });
    expect(result.budget).toBe(2000);
    expect(result.periods[0]).toMatchObject({ tasks: 8, passTasks: 5, tasksPriced: 0, costUsd: null, values: { tokens_per_task: 80 / 8, pass_at_1: 1 } });
    expect(result.sources).toMatchObject({ tasks: 8, tasksMissingTokens: 0 });
  });
});
