import { expect, test } from 'vitest';
import type { EvalCase } from '../core/case.js';
import { makeResults, pattern } from '../test-support/results.js';
import { planUnits, type Unit } from './plan.js';
import { SequentialMonitor } from './sequential-monitor.js';
import { shuffledIds, type SequentialPlan } from './sequential-plan.js';
import { sequentialQueue } from './unit-queue.js';

const CASES = 60;
const ids = Array.from({ length: CASES }, (_, i) => `case-${String(i).padStart(4, '0')}`);
const evalCase = (id: string): EvalCase => ({ id, input: id, messages: undefined, expected: 'x', reference: undefined, category: undefined, tags: [], cluster: undefined, metadata: {}, source: { file: 'val.jsonl', line: 1 } });
const plan: SequentialPlan = {
  order: shuffledIds(ids, 4),
  orderSeed: 4,
  lookEvery: 20,
  minCases: 40,
  levels: { minGain: 0.08, confidence: 0.95, gainConfidence: 0.8, futilityConfidence: 0.6, horizon: CASES },
  maxTokenGrowthRatio: 1.15,
  maxLatencyGrowthRatio: 1.3,
  epochs: 1,
  bestOfN: [1, 8],
};
const units = planUnits({ split: 'val', cases: ids.map(evalCase), regressionCases: [evalCase('reg-1')], bestOfN: [1, 8], epochs: 1 });
// Identical arms: the first look (40 cases) stops for futility.
const same = makeResults({ cases: CASES, arms: ['baseline_single', 'candidate_single', 'baseline_best_of_8', 'candidate_best_of_8'].map((arm) => ({ arm, passed: pattern(0.6) })) });

test('before a stop: the regression set, then whole cases in the seeded order', () => {
  const queue = sequentialQueue(units, new SequentialMonitor(plan), () => {});
  const handed: Unit[] = [];
  for (let unit = queue.next(); unit; unit = queue.next()) handed.push(unit);
  expect(handed).toHaveLength(units.length);
  expect(handed[0]?.split).toBe('regression');
  expect(handed.slice(3).map((u) => u.evalCase.id).filter((id, i, all) => all[i - 1] !== id)).toEqual(plan.order);
});

test('after a stop: cases already started finish, no new case starts, the regression set still runs', () => {
  const first41 = new Set(plan.order.slice(0, 41));
  const inFlight = plan.order[40] as string;
  // Committed before a crash: 40 whole cases (which decide), and two arms of the 41st.
  const committed = same.filter((r) => first41.has(r.case_id) && !(r.case_id === inFlight && r.n === 8));
  const monitor = new SequentialMonitor(plan);
  for (const result of committed) monitor.record(result);
  expect(monitor.stopped).toMatchObject({ atCases: 40, reason: 'futility' });
  const done = new Set(committed.map((r) => `val|${r.case_id}|${r.arm}|0`));
  let announced = 0;
  const queue = sequentialQueue(units.filter((u) => !done.has(u.key)), monitor, () => (announced += 1));
  expect(announced).toBe(1);
  const handed: string[] = [];
  for (let unit = queue.next(); unit; unit = queue.next()) handed.push(unit.key);
  expect(handed).toEqual(['regression|reg-1|baseline_single|0', 'regression|reg-1|candidate_single|0', `val|${inFlight}|baseline_best_of_8|0`, `val|${inFlight}|candidate_best_of_8|0`]);
});
