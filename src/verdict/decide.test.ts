import { describe, expect, test } from 'vitest';
import { analyzeResults, type AnalysisContext } from '../analysis/analyze-run.js';
import type { ResultRecord } from '../ledger/records.js';
import { makeResults, pattern } from '../test-support/results.js';
import { decideVerdict } from './decide.js';

const context: AnalysisContext = {
  runId: 'r', experiment: 'e', split: 'val', budget: 10_000, bestOfN: [1, 8], baselineId: 'v2', candidateId: 'v3',
  gates: { minSameBudgetGain: 0.08, maxTokenGrowthRatio: 1.15, maxLatencyGrowthRatio: 1.3, bootstrapRounds: 1000, confidence: 0.95 },
  seed: 1, nonBindingArms: [],
};

function verdictOf(results: ResultRecord[], overrides: Partial<AnalysisContext> = {}) {
  return decideVerdict(analyzeResults(results, { ...context, ...overrides }));
}

const N = 200;
const four = (a: (i: number) => boolean, b: (i: number) => boolean, c: (i: number) => boolean, d: (i: number) => boolean, extra: { tokensB?: (i: number) => number; latencyB?: (i: number) => number } = {}) =>
  makeResults({
    cases: N,
    category: (i) => `cat-${i % 4}`,
    arms: [
      { arm: 'baseline_single', passed: a },
      { arm: 'candidate_single', passed: b, ...(extra.tokensB ? { tokens: extra.tokensB } : {}), ...(extra.latencyB ? { latency: extra.latencyB } : {}) },
      { arm: 'baseline_best_of_8', passed: c, tokens: () => 700 },
      { arm: 'candidate_best_of_8', passed: d, tokens: () => 700 },
    ],
  });

describe('verdict rules, in order', () => {
  test('real_evolution: +15 pts at n=1, same tokens and latency', () => {
    const v = verdictOf(four(pattern(0.6), (i) => pattern(0.6)(i) || pattern(0.15, 7)(i), pattern(0.6), (i) => pattern(0.6)(i) || pattern(0.15, 7)(i)));
    expect(v.verdict).toBe('real_evolution');
    expect(v.same_budget?.ci95?.[0]).toBeGreaterThan(0);
    expect(v.bestofn_off.delta).toBeCloseTo(v.same_budget?.delta ?? NaN, 12);
    expect(v.bestofn_on?.n).toBe(8);
    expect(v.reason).toMatch(/^real evolution/);
  });

  test('budget_growth: the same gain bought with 40% more tokens per success', () => {
    const v = verdictOf(four(pattern(0.6), (i) => pattern(0.6)(i) || pattern(0.15, 7)(i), pattern(0.6), pattern(0.6), { tokensB: () => 165 }));
    expect(v.verdict).toBe('budget_growth');
    expect(v.same_budget?.tokens_per_success_growth).toBeGreaterThan(1.15);
    expect(v.checks.find((c) => c.name === 'tokens_per_success')?.passed).toBe(false);
  });

  test('budget_growth: p95 latency 1.5× the baseline', () => {
    const v = verdictOf(four(pattern(0.6), (i) => pattern(0.6)(i) || pattern(0.15, 7)(i), pattern(0.6), pattern(0.6), { latencyB: () => 150 }));
    expect(v.verdict).toBe('budget_growth');
    expect(v.same_budget?.p95_latency_ratio).toBeCloseTo(1.5, 12);
  });

  test('budget_leakage: same pass@1, +30 pts only at n=8', () => {
    const v = verdictOf(four(pattern(0.5), pattern(0.5), pattern(0.5), (i) => pattern(0.5)(i) || pattern(0.3, 3)(i)));
    expect(v.verdict).toBe('budget_leakage');
    expect(v.bestofn_on?.delta).toBeGreaterThan(0.1);
    expect(v.bestofn_on?.difference_in_differences).toBeGreaterThan(0.1);
    expect(v.same_budget?.delta).toBe(0);
  });

  test('inconclusive: +10 pts on 40 cases (6 gained, 2 lost), CI crosses 0, with the cases needed for 80% power', () => {
    const results = makeResults({
      cases: 40,
      arms: [
        { arm: 'baseline_single', passed: (i) => i < 20 },
        { arm: 'candidate_single', passed: (i) => i < 18 || (i >= 20 && i < 26) },
        { arm: 'baseline_best_of_8', passed: pattern(0.5) },
        { arm: 'candidate_best_of_8', passed: pattern(0.5) },
      ],
    });
    const v = verdictOf(results);
    expect(v.same_budget?.delta).toBeCloseTo(0.1, 12);
    expect(v.same_budget?.mcnemar_p).toBeCloseTo(0.2890625, 12); // 2·P(X ≤ 2), X ~ Bin(8, 1/2) = 2·37/256
    expect(v.same_budget?.ci95?.[0]).toBeLessThanOrEqual(0);
    expect(v.verdict).toBe('inconclusive');
    expect(v.power?.cases_for_80_power).toBeGreaterThan(40);
    expect(v.reason).toContain(`${v.power?.cases_for_80_power} cases`);
  });

  test('no_gain: identical arms', () => {
    const v = verdictOf(four(pattern(0.7), pattern(0.7), pattern(0.8), pattern(0.8)));
    expect(v.verdict).toBe('no_gain');
    expect(v.same_budget?.delta).toBe(0);
    expect(v.same_budget?.mcnemar_p).toBe(1);
  });

  test('regression hidden by the mean: flat total, one category much worse', () => {
    // Candidate gains in cat-0..2 and loses every case of cat-3: total stays flat.
    const results = four(
      (i) => i % 4 === 3 || pattern(0.4)(i),
      (i) => (i % 4 === 3 ? false : pattern(0.4)(i) || pattern(0.45, 5)(i)),
      pattern(0.6),
      pattern(0.6),
    );
    const v = verdictOf(results);
    expect(Math.abs(v.same_budget?.delta ?? 1)).toBeLessThan(0.05);
    expect(v.verdict).toBe('regression');
    const cat3 = v.categories.find((c) => c.category === 'cat-3');
    expect(cat3?.worse).toBe(true);
    expect(cat3?.confidence).toBeCloseTo(1 - 0.05 / 4, 12);
    expect(v.categories.filter((c) => c.worse)).toHaveLength(1);
  });

  test('regression set worse → regression even with a real n=1 gain on val', () => {
    const val = four(pattern(0.6), (i) => pattern(0.6)(i) || pattern(0.15, 7)(i), pattern(0.6), pattern(0.6));
    const regression = makeResults({ cases: 40, split: 'regression', arms: [{ arm: 'baseline_single', passed: () => true }, { arm: 'candidate_single', passed: (i) => i % 3 !== 0 }] });
    const v = verdictOf([...val, ...regression]);
    expect(v.verdict).toBe('regression');
    expect(v.regression_set?.worse).toBe(true);
    expect(v.regression_set?.lost_cases).toHaveLength(14);
  });

  test('invalid: a unit billed more than B', () => {
    const results = four(pattern(0.6), pattern(0.9), pattern(0.6), pattern(0.9));
    const first = results.find((r) => r.arm === 'candidate_single');
    if (first) first.total_tokens = 20_000;
    const v = verdictOf(results);
    expect(v.verdict).toBe('invalid');
    expect(v.invariants.over_budget_units).toBe(1);
  });

  test('invalid: arms on different cases', () => {
    const results = four(pattern(0.6), pattern(0.9), pattern(0.6), pattern(0.9)).filter((r) => !(r.arm === 'candidate_best_of_8' && r.case_id === 'case-0003'));
    const v = verdictOf(results);
    expect(v.verdict).toBe('invalid');
    expect(v.invariants.mismatched_arms).toEqual(['candidate_best_of_8']);
  });

  test('unknown tokens are left out of token metrics and counted, never read as 0', () => {
    const results = four(pattern(0.6), (i) => pattern(0.6)(i) || pattern(0.15, 7)(i), pattern(0.6), pattern(0.6), { tokensB: (i) => (i === 5 ? (undefined as unknown as number) : 100) });
    const v = verdictOf(results);
    expect(v.invariants.units_missing_tokens).toBe(1);
    expect(v.invariants.calls_missing_usage).toBe(1);
    expect(v.same_budget?.candidate_tokens_per_success).toBeGreaterThan(90);
  });

  test('the record keeps the seed shape', () => {
    const v = verdictOf(four(pattern(0.6), (i) => pattern(0.6)(i) || pattern(0.15, 7)(i), pattern(0.6), pattern(0.6)));
    expect(Object.keys(v)).toEqual(expect.arrayContaining(['candidate_id', 'baseline_id', 'same_budget', 'bestofn_off', 'bestofn_on', 'verdict', 'reason']));
    expect(v.same_budget).toMatchObject({ budget: 10_000, baseline_pass: expect.any(Number), candidate_pass: expect.any(Number), delta: expect.any(Number), baseline_tokens_per_success: expect.any(Number), candidate_tokens_per_success: expect.any(Number) });
    expect(v.bestofn_on).toMatchObject({ n: 8, delta: expect.any(Number), total_tokens_ratio: expect.any(Number) });
    expect(v.method).toMatchObject({ rounds: 1000, seed: 1 });
    expect(JSON.parse(JSON.stringify(v))).toEqual(v);
  });
});
