/**
 * Issue 24, statistics items 1–3 at the verdict: each case here was decided wrongly before —
 * a zero-width interval called `no_gain`, a gain the exact test does not support promoted,
 * clustered near-duplicates read as independent evidence, a ×1.3 spend passed on its point
 * estimate.
 */
import { describe, expect, test } from 'vitest';
import { analyzeResults, type AnalysisContext } from '../analysis/analyze-run.js';
import type { ResultRecord } from '../ledger/records.js';
import { makeResults } from '../test-support/results.js';
import { decideVerdict } from './decide.js';

const context: AnalysisContext = {
  runId: 'r', experiment: 'e', split: 'val', budget: 10_000, bestOfN: [1], baselineId: 'v1', candidateId: 'v2',
  gates: { minSameBudgetGain: 0.05, maxTokenGrowthRatio: 1.15, maxLatencyGrowthRatio: 1.3, bootstrapRounds: 1000, confidence: 0.95 },
  seed: 1, nonBindingArms: [],
};

const verdictOf = (results: ResultRecord[], overrides: Partial<AnalysisContext> = {}) => decideVerdict(analyzeResults(results, { ...context, ...overrides }), new Date(0));

function pair(cases: number, baseline: (i: number) => boolean, candidate: (i: number) => boolean, tokensB?: (i: number) => number): ResultRecord[] {
  return makeResults({ cases, arms: [{ arm: 'baseline_single', passed: baseline }, { arm: 'candidate_single', passed: candidate, ...(tokensB ? { tokens: tokensB } : {}) }] });
}

const withClusters = (results: ResultRecord[], size: number): ResultRecord[] => results.map((r) => ({ ...r, cluster: `doc-${Math.floor(Number(r.case_id.slice(5)) / size)}` }));

describe('the n=1 interval', () => {
  test('24 concordant pairs: a score interval of ±13.8 pts and inconclusive with the cases needed, never [+0.0, +0.0] no_gain', () => {
    const v = verdictOf(pair(24, (i) => i < 12, (i) => i < 12));
    expect(v.same_budget?.ci_method).toBe('tango-score');
    expect(v.same_budget?.ci95?.[1]).toBeCloseTo(0.138, 3);
    expect(v.verdict).toBe('inconclusive');
    expect(v.power?.cases_for_80_power).toBeGreaterThan(24);
    expect(v.reason).toContain('its interval still holds it');
  });

  test('3 candidate-only passes of 50: not a gain (McNemar p = 0.25), whatever the interval', () => {
    const v = verdictOf(pair(50, (i) => i < 25, (i) => i < 28));
    expect(v.same_budget?.mcnemar_p).toBeCloseTo(0.25, 12);
    expect(v.verdict).not.toBe('real_evolution');
    expect(v.verdict).toBe('inconclusive');
  });

  test('a gain the interval and McNemar both support is still real_evolution', () => {
    const v = verdictOf(pair(200, (i) => i < 100, (i) => i < 125));
    expect(v.checks.find((c) => c.name === 'mcnemar_agrees')?.passed).toBe(true);
    expect(v.verdict).toBe('real_evolution');
  });

  test('no_gain when the interval excludes the minimum gain', () => {
    const v = verdictOf(pair(2000, (i) => i < 1000, (i) => i < 1000 || (i >= 1000 && i < 1010)));
    expect(v.same_budget?.ci95?.[1]).toBeLessThan(0.05);
    expect(v.verdict).toBe('no_gain');
  });
});

describe('clusters', () => {
  // 200 cases in 20 clusters of 10 near-duplicates; the candidate wins 3 whole clusters.
  const results = pair(200, (i) => i % 20 < 10, (i) => i % 20 < 10 || (i >= 10 && i < 20) || (i >= 50 && i < 60) || (i >= 90 && i < 100));

  test('wins in 3 of 20 clusters: real_evolution read as independent cases, inconclusive with the cluster field', () => {
    expect(verdictOf(results).verdict).toBe('real_evolution');
    const v = verdictOf(withClusters(results, 10));
    expect(v.same_budget?.ci_method).toBe('tango-score-clustered');
    expect(v.same_budget?.clusters).toBe(20);
    expect(v.same_budget?.design_effect).toBe(10);
    expect(v.same_budget?.mcnemar_p).toBeGreaterThan(0.05);
    expect(v.verdict).toBe('inconclusive');
    expect(v.power?.cases_for_80_power).toBeGreaterThan(200);
  });

  test('the token ratio is bootstrapped over clusters too', () => {
    const v = verdictOf(withClusters(pair(200, (i) => i < 100, (i) => i < 140, (i) => 100 + (i % 7)), 10));
    expect(v.same_budget?.tokens_per_success_growth_ci_method).toBe('cluster-bootstrap');
  });

  test('fractional outcomes (epochs) use the cluster bootstrap', () => {
    const epochs = [0, 1].flatMap((epoch) => pair(100, (i) => (i + epoch) % 3 === 0, (i) => (i + epoch) % 2 === 0).map((r) => ({ ...r, epoch })));
    expect(verdictOf(epochs).same_budget?.ci_method).toBe('bca-bootstrap');
    expect(verdictOf(withClusters(epochs, 5)).same_budget?.ci_method).toBe('cluster-bootstrap');
  });
});

describe('the tokens_per_success gate reads its interval', () => {
  // A real +12.5 pt gain (100 → 125 of 200); the baseline's tokens heavy-tailed (every 10th case ×11).
  const baselineTokens = (i: number): number => (i % 10 === 0 ? 900 : 80);

  function run(candidateTokens: (i: number) => number): ReturnType<typeof verdictOf> {
    const results = makeResults({ cases: 200, arms: [{ arm: 'baseline_single', passed: (i) => i < 100, tokens: baselineTokens }, { arm: 'candidate_single', passed: (i) => i < 125, tokens: candidateTokens }] });
    return verdictOf(results);
  }

  test('×1.8 tokens per case (tokens/success ×1.44): budget_growth when the lower bound is above the gate', () => {
    const v = run((i) => baselineTokens(i) * 1.8);
    expect(v.same_budget?.tokens_per_success_growth).toBeCloseTo(1.8 * (100 / 125), 9);
    expect(v.same_budget?.tokens_per_success_growth_ci95?.[0]).toBeGreaterThan(1.15);
    expect(v.verdict).toBe('budget_growth');
  });

  test('a point estimate under the gate whose interval reaches the cost-gaming level ×1.30: inconclusive, not real_evolution', () => {
    // Every 40th case costs 1,000× the others, and the candidate spends ×3 on some of those,
    // ×0.3 on others (×1.44 on average): tokens/success ≈ ×1.14, decided by five cases.
    const results = makeResults({
      cases: 200,
      budget: 100_000,
      arms: [
        { arm: 'baseline_single', passed: (i) => i < 100, tokens: (i) => (i % 40 === 0 ? 20_000 : 20) },
        { arm: 'candidate_single', passed: (i) => i < 125, tokens: (i) => (i % 40 === 0 ? 20_000 * ([3, 0.3, 2.5, 0.4, 1][i / 40] ?? 1) : 20) },
      ],
    });
    const v = verdictOf(results, { budget: 100_000 });
    const ci = v.same_budget?.tokens_per_success_growth_ci95;
    expect(v.same_budget?.tokens_per_success_growth).toBeLessThanOrEqual(1.15);
    expect(ci?.[0]).toBeLessThanOrEqual(1.15);
    expect(ci?.[1]).toBeGreaterThanOrEqual(1.3);
    expect(v.verdict).toBe('inconclusive');
    expect(v.reason).toContain('tokens_per_success interval holds the gate');
  });

  test('the same gain with costs that vary less: the interval excludes ×1.30 and it is real_evolution', () => {
    const v = run((i) => baselineTokens(i) * 1.3 * (i % 3 === 0 ? 0.9 : 1.05));
    expect(v.same_budget?.tokens_per_success_growth).toBeLessThanOrEqual(1.15);
    expect(v.same_budget?.tokens_per_success_growth_ci95?.[1]).toBeLessThan(1.3);
    expect(v.verdict).toBe('real_evolution');
  });
});
