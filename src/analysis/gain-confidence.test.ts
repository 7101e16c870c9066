/**
 * `gates.gainConfidence` (set by evolve): the n=1 gain interval that real_evolution needs above
 * 0 is computed at that level; every other interval (categories, regression, n=N) keeps
 * `confidence`, so a loop's multiple-testing correction never loosens a regression check.
 */
import { expect, test } from 'vitest';
import { DEFAULTS } from '../config/defaults.js';
import type { ResultRecord } from '../ledger/records.js';
import { makeResults } from '../test-support/results.js';
import { decideVerdict } from '../verdict/decide.js';
import { analyzeResults, type AnalysisContext } from './analyze-run.js';

/** 100 cases: the candidate wins 12 and loses 3 at n=1 — significant at 95%, not at 99.5%. */
function results(): ResultRecord[] {
  const candidate = (i: number): boolean => (i < 50 ? i > 2 : i < 62);
  return makeResults({
    cases: 100,
    category: (i) => (i % 2 === 0 ? 'even' : 'odd'),
    arms: [{ arm: 'baseline_single', passed: (i) => i < 50 }, { arm: 'candidate_single', passed: candidate }],
  });
}

const context = (gainConfidence?: number): AnalysisContext => ({
  runId: 'r', experiment: 'e', split: 'val', budget: 1000, bestOfN: [1], baselineId: 'b', candidateId: 'c', seed: 3, nonBindingArms: [],
  gates: { minSameBudgetGain: 0.08, maxTokenGrowthRatio: 1.15, maxLatencyGrowthRatio: 1.3, bootstrapRounds: 2000, confidence: DEFAULTS.confidence, ...(gainConfidence === undefined ? {} : { gainConfidence }) },
});

test('a corrected gain level widens only the gain interval, and can take real_evolution away', () => {
  const plain = analyzeResults(results(), context());
  const corrected = analyzeResults(results(), context(0.995));
  const verdictPlain = decideVerdict(plain, new Date(0));
  const verdictCorrected = decideVerdict(corrected, new Date(0));
  expect(verdictPlain.verdict).toBe('real_evolution');
  expect(verdictCorrected.verdict).toBe('inconclusive');
  expect(corrected.sameBudget.passes?.delta.value).toBe(plain.sameBudget.passes?.delta.value);
  expect(corrected.sameBudget.passes?.delta.ci[0]).toBeLessThan(plain.sameBudget.passes?.delta.ci[0] ?? 0);
  expect(verdictCorrected.same_budget?.confidence).toBe(0.995);
  expect(verdictCorrected.gates.gain_confidence).toBe(0.995);
  // Categories keep their own (Bonferroni-over-categories) level at 95%.
  expect(corrected.categories.map((c) => c.delta.ci)).toEqual(plain.categories.map((c) => c.delta.ci));
  expect(verdictPlain.gates.gain_confidence).toBeUndefined();
});
