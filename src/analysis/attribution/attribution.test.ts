import { describe, expect, test } from 'vitest';
import type { ResultRecord, ToolStep } from '../../ledger/records.js';
import { makeResults, pattern } from '../../test-support/results.js';
import { analyzeResults, type AnalysisContext } from '../analyze-run.js';
import { attribute } from './attribute.js';
import { bestOfNStreak } from './bestofn-streak.js';
import { evalDrift, totalVariationDistance } from './eval-drift.js';
import { lengthGaming } from './length-gaming.js';
import { singlePathPairs } from './paired-rows.js';
import { toolRedundancy } from './tool-redundancy.js';

const settings = { rounds: 1000, seed: 3, confidence: 0.95 };
const context: AnalysisContext = {
  runId: 'r', experiment: 'e', split: 'val', budget: 10_000, bestOfN: [1, 8], baselineId: 'a', candidateId: 'b',
  gates: { minSameBudgetGain: 0.08, maxTokenGrowthRatio: 1.15, maxLatencyGrowthRatio: 1.3, bootstrapRounds: 1000, confidence: 0.95 }, seed: 3, nonBindingArms: [],
};

/** Judge-scored n=1 results: score = quality + bias·log₂(length), a judge with a log-linear length bias. */
function judged(cases: number, candidateLength: (i: number) => number, candidateQualityBoost: number, bias: number): ResultRecord[] {
  const results = makeResults({ cases, arms: [{ arm: 'baseline_single', passed: pattern(0.7) }, { arm: 'candidate_single', passed: pattern(0.7) }] });
  for (const r of results) {
    const i = Number(r.case_id.slice(5));
    const length = r.variant === 'baseline' ? 10 + (i % 7) : candidateLength(i);
    const quality = (pattern(0.7)(i) ? 0.5 : 0.2) + (r.variant === 'candidate' ? candidateQualityBoost : 0);
    const score = Math.min(1, quality + bias * Math.log2(length + 1));
    r.paths = [{ path: 0, output: 'x'.repeat(length * 4), passed: r.passed, score, finish_reason: 'stop', tokens: length + 50, output_tokens: length, error: undefined, judge: { score, dimensions: { correctness: score }, rationale: '', error: undefined, tokens: 30 } }];
  }
  return results;
}

describe('length gaming', () => {
  test('a gain that comes only from length is flagged; it vanishes at equal length', () => {
    const f = lengthGaming(singlePathPairs(judged(200, (i) => 200 + (i % 50) * 4, 0, 0.05)), settings);
    expect(f.flagged).toBe(true);
    expect(f.evidence.raw_judge_delta_ci).toEqual([expect.any(Number), expect.any(Number)]);
    expect((f.evidence.raw_judge_delta_ci as [number, number])[0]).toBeGreaterThan(0);
    const lc = f.evidence.length_controlled_ci as [number, number];
    expect(lc[0]).toBeLessThanOrEqual(0);
    expect(f.evidence.score_length_correlation as number).toBeGreaterThan(0.3);
    expect(f.action).toContain('skill/prompt');
  });

  test('a real gain at equal length is not flagged', () => {
    const f = lengthGaming(singlePathPairs(judged(200, (i) => 10 + (i % 7), 0.15, 0.05)), settings);
    expect(f.flagged).toBe(false);
    expect(f.evidence.length_controlled_delta as number).toBeCloseTo(0.15, 1);
  });

  test('not applicable without judge scores', () => {
    const results = makeResults({ cases: 20, arms: [{ arm: 'baseline_single', passed: pattern(0.5) }, { arm: 'candidate_single', passed: pattern(0.5) }] });
    expect(lengthGaming(singlePathPairs(results), settings)).toMatchObject({ applicable: false, flagged: false });
  });
});

describe('tool redundancy', () => {
  const step = (tool: string, args: string, error?: string, retry = false): ToolStep => ({ turn: 1, tool, args_hash: args, result_bytes: 10, duration_ms: 1, error, retry });
  test('duplicates and retries per success, candidate vs baseline', () => {
    const results = makeResults({ cases: 10, arms: [{ arm: 'baseline_single', passed: () => true }, { arm: 'candidate_single', passed: () => true }] });
    for (const r of results) {
      const trajectory = r.variant === 'baseline' ? [step('lookup', 'a')] : [step('lookup', 'a', 'flaky'), step('lookup', 'a', undefined, true), step('lookup', 'a')];
      r.paths = [{ path: 0, output: '', passed: true, score: 1, finish_reason: 'stop', tokens: 10, error: undefined, trajectory }];
    }
    const f = toolRedundancy(results);
    expect(f.flagged).toBe(true);
    expect(f.evidence).toMatchObject({ baseline_calls_per_success: 1, candidate_calls_per_success: 3, candidate_duplicates_per_success: 2, candidate_retries_per_success: 1, baseline_duplicates_per_success: 0, candidate_failed_calls: 10 });
  });
});

describe('eval drift and history', () => {
  test('total variation distance, closed form', () => {
    expect(totalVariationDistance({ a: 1, b: 1 }, { a: 1, b: 1 })).toBe(0);
    expect(totalVariationDistance({ a: 1 }, { b: 5 })).toBe(1);
    expect(totalVariationDistance({ a: 3, b: 1 }, { a: 1, b: 1 })).toBeCloseTo(0.25, 15);
  });

  test('a split selected on 12 times, and failures from another category mix, is flagged', () => {
    const priorRuns = Array.from({ length: 12 }, (_, i) => ({ runId: `r${i}`, createdAt: new Date(Date.UTC(2026, 0, 1 + i)).toISOString() }));
    const f = evalDrift({ priorRuns, evalCategories: { iso: 50, us: 50 }, productionFailures: { compact: 9, iso: 1 }, now: new Date(Date.UTC(2026, 1, 1)) });
    expect(f.flagged).toBe(true);
    expect(f.evidence).toMatchObject({ prior_selections: 12, oldest_use_days: 31, category_distance: 0.9 });
    expect(evalDrift({ priorRuns: [], evalCategories: { iso: 1 }, productionFailures: undefined, now: new Date() }).flagged).toBe(false);
  });

  test('three consecutive n=N-only rounds are flagged; a real n=1 round resets the streak', () => {
    const round = (i: number, n1: boolean, nN: boolean) => ({ runId: `r${i}`, createdAt: `2026-01-0${i}T00:00:00Z`, n1Significant: n1, nNSignificant: nN });
    expect(bestOfNStreak([round(1, false, true), round(2, false, true), round(3, false, true)]).flagged).toBe(true);
    expect(bestOfNStreak([round(1, false, true), round(2, true, true), round(3, false, true), round(4, false, true)]).flagged).toBe(false);
  });
});

test('attribute routes each flagged finding to an action, and the verdict refuses a length-gamed gain', async () => {
  const results = judged(200, (i) => 200 + (i % 50) * 4, 0, 0.05);
  const analysis = analyzeResults(results, { ...context, bestOfN: [1] });
  const attribution = attribute(results, analysis);
  expect(attribution.flags).toContain('length_gaming');
  const { decideVerdict } = await import('../../verdict/decide.js');
  // Make pass/fail follow the judge, as a judge scorer would: the gain then looks real.
  for (const r of results) r.passed = (r.paths[0]?.score ?? 0) >= 0.55;
  const gamed = analyzeResults(results, { ...context, bestOfN: [1] });
  const verdict = decideVerdict(gamed, new Date(0), attribute(results, gamed));
  expect(verdict.same_budget?.ci95?.[0]).toBeGreaterThan(0);
  expect(verdict.verdict).not.toBe('real_evolution');
  expect(verdict.checks.find((c) => c.name === 'no_length_gaming')?.passed).toBe(false);
});
