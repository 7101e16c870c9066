import { describe, expect, test } from 'vitest';
import type { EvalCase } from '../core/case.js';
import type { ResultRecord } from '../ledger/records.js';
import { createRng } from '../stats/index.js';
import { makeResults, pattern } from '../test-support/results.js';
import { replaySequential, SequentialMonitor } from './sequential-monitor.js';
import { isLook, sequentialUnitOrder, shuffledIds, type SequentialPlan } from './sequential-plan.js';
import { planUnits } from './plan.js';

const CASES = 200;
const ids = Array.from({ length: CASES }, (_, i) => `case-${String(i).padStart(4, '0')}`);

function plan(overrides: Partial<SequentialPlan> = {}): SequentialPlan {
  return {
    order: shuffledIds(ids, 7),
    orderSeed: 7,
    lookEvery: 20,
    minCases: 40,
    levels: { minGain: 0.08, confidence: 0.95, gainConfidence: 0.85, futilityConfidence: 0.65, horizon: CASES },
    maxTokenGrowthRatio: 1.15,
    maxLatencyGrowthRatio: 1.3,
    epochs: 1,
    bestOfN: [1, 8],
    ...overrides,
  };
}

/** A +25-point candidate at n=1 and n=8; `tokensB` scales the candidate's n=1 spend. */
function gainRun(tokensB = 100): ResultRecord[] {
  const better = (i: number): boolean => pattern(0.5)(i) || pattern(0.35, 3)(i);
  return makeResults({
    cases: CASES,
    arms: [
      { arm: 'baseline_single', passed: pattern(0.5) },
      { arm: 'candidate_single', passed: better, tokens: () => tokensB },
      { arm: 'baseline_best_of_8', passed: pattern(0.5), tokens: () => 800 },
      { arm: 'candidate_best_of_8', passed: better, tokens: () => 800 },
    ],
  });
}

describe('SequentialMonitor', () => {
  test('a clear gain stops for efficacy at a look, the same whatever order results arrive in', () => {
    const results = gainRun();
    const inOrder = replaySequential(plan(), results).outcome();
    expect(inOrder.stop?.reason).toBe('efficacy');
    expect(inOrder.stop?.atCases).toBeLessThan(CASES);
    expect(isLook(plan(), inOrder.stop?.atCases ?? 0)).toBe(true);
    expect(inOrder.caseIds).toEqual(plan().order.slice(0, inOrder.stop?.atCases));
    expect(inOrder.decidedGain && inOrder.withinGates).toBe(true);
    const shuffled = [...results];
    const rng = createRng(1);
    for (let i = shuffled.length - 1; i > 0; i -= 1) {
      const j = rng.int(i + 1);
      [shuffled[i], shuffled[j]] = [shuffled[j] as ResultRecord, shuffled[i] as ResultRecord];
    }
    const anyOrder = replaySequential(plan(), shuffled).outcome();
    expect(anyOrder.stop).toEqual(inOrder.stop);
    expect(anyOrder.caseIds).toEqual(inOrder.caseIds);
    expect(anyOrder.looks).toEqual(inOrder.looks);
  });

  test('a case with an arm missing holds the prefix: later complete cases are not read', () => {
    const order = plan().order;
    const missing = order[10] as string;
    const results = gainRun().filter((r) => !(r.case_id === missing && r.arm === 'candidate_best_of_8'));
    const outcome = replaySequential(plan(), results).outcome();
    expect(outcome.caseIds).toHaveLength(10);
    expect(outcome.stop).toBeUndefined();
    expect(outcome.looks).toEqual([]);
    expect(outcome.casesStarted).toBe(CASES);
  });

  test('the gain alone does not stop a candidate billing 2× per success: it runs to the end', () => {
    const outcome = replaySequential(plan(), gainRun(200)).outcome();
    expect(outcome.decidedGain).toBe(true);
    expect(outcome.withinGates).toBe(false);
    expect(outcome.stop?.reason).toBe('exhausted');
    expect(outcome.caseIds).toHaveLength(CASES);
    expect(outcome.looks.map((l) => l.cases)).toEqual([40, 60, 80, 100, 120, 140, 160, 180, 200]);
  });

  test('identical arms stop for futility; a clearly worse candidate is a regression', () => {
    const same = makeResults({ cases: CASES, arms: ['baseline_single', 'candidate_single', 'baseline_best_of_8', 'candidate_best_of_8'].map((arm) => ({ arm, passed: pattern(0.6) })) });
    expect(replaySequential(plan(), same).outcome().stop).toEqual({ atCases: 40, reason: 'futility', regression: false });
    const worse = makeResults({ cases: CASES, arms: [
      { arm: 'baseline_single', passed: pattern(0.8) },
      { arm: 'candidate_single', passed: (i) => pattern(0.8)(i) && pattern(0.45, 5)(i) },
      { arm: 'baseline_best_of_8', passed: pattern(0.8) },
      { arm: 'candidate_best_of_8', passed: pattern(0.8) },
    ] });
    const stop = replaySequential(plan(), worse).outcome().stop;
    expect(stop).toMatchObject({ reason: 'futility', regression: true });
  });

  test('tokens: everything recorded is spent; the estimate scales the read cases to the split', () => {
    const monitor = new SequentialMonitor(plan());
    const regression = makeResults({ cases: 5, split: 'regression', arms: [{ arm: 'baseline_single', passed: () => true, tokens: () => 50 }, { arm: 'candidate_single', passed: () => true, tokens: () => 50 }] });
    for (const result of regression) monitor.record(result);
    const results = gainRun();
    for (const result of results) monitor.record(result);
    const outcome = monitor.outcome();
    const read = outcome.caseIds.length;
    expect(outcome.tokens.regression).toBe(500);
    expect(outcome.tokens.spent).toBe(500 + results.reduce((sum, r) => sum + (r.total_tokens ?? 0), 0));
    // Per case: 100 + 100 + 800 + 800 tokens.
    expect(outcome.tokens.read).toBe(read * 1800);
    expect(outcome.tokens.fullSplitEstimate).toBe(500 + 1800 * CASES);
  });

  test('epochs: a case is complete with every epoch of the n=1 arms, and its difference is their mean', () => {
    const twoEpochs = plan({ epochs: 2, bestOfN: [1] });
    const monitor = new SequentialMonitor(twoEpochs);
    const first = twoEpochs.order[0] as string;
    const record = (arm: string, epoch: number, passed: boolean): ResultRecord => ({ ...(makeResults({ cases: 1, arms: [{ arm, passed: () => passed }] })[0] as ResultRecord), case_id: first, epoch });
    monitor.record(record('baseline_single', 0, false));
    monitor.record(record('candidate_single', 0, true));
    monitor.record(record('baseline_single', 1, false));
    expect(monitor.outcome().caseIds).toEqual([]);
    monitor.record(record('candidate_single', 1, false));
    expect(monitor.outcome().caseIds).toEqual([first]);
    expect(monitor.outcome().singles.mean).toBe(0.5);
  });
});

describe('the sequential plan', () => {
  test('the order is a seeded permutation: the same for the same seed, another for another', () => {
    const a = shuffledIds(ids, 1);
    expect([...a].sort()).toEqual(ids);
    expect(shuffledIds(ids, 1)).toEqual(a);
    expect(shuffledIds(ids, 2)).not.toEqual(a);
  });

  test('units: the regression set first, then whole cases in the seeded order', () => {
    const evalCase = (id: string): EvalCase => ({ id, input: id, messages: undefined, expected: 'x', reference: undefined, category: undefined, tags: [], cluster: undefined, metadata: {}, source: { file: 'val.jsonl', line: 1 } });
    const cases = ids.slice(0, 6).map(evalCase);
    const units = planUnits({ split: 'val', cases, regressionCases: [evalCase('reg-1')], bestOfN: [1, 4], epochs: 1 });
    const order = shuffledIds(cases.map((c) => c.id), 3);
    const ordered = sequentialUnitOrder(units, order);
    expect(ordered.slice(0, 2).every((u) => u.split === 'regression')).toBe(true);
    const caseSequence = ordered.slice(2).map((u) => u.evalCase.id).filter((id, i, all) => all[i - 1] !== id);
    expect(caseSequence).toEqual(order);
    expect(ordered.slice(2, 6).map((u) => u.arm.arm)).toEqual(['baseline_single', 'candidate_single', 'baseline_best_of_4', 'candidate_best_of_4']);
  });

  test('looks: every block from min_cases on, and the last case', () => {
    const shape = { lookEvery: 20, minCases: 50, order: ids.slice(0, 130) };
    expect([...Array(131).keys()].filter((n) => isLook(shape, n))).toEqual([60, 80, 100, 120, 130]);
  });
});
