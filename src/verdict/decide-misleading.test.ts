/**
 * Verdicts that used to mislead (issue 11, "The verdict"): each case here was decided wrongly
 * — or printed NaN — before the rule it tests.
 */
import { describe, expect, test } from 'vitest';
import { analyzeResults, type AnalysisContext } from '../analysis/analyze-run.js';
import type { PathOutcome, ResultRecord } from '../ledger/records.js';
import { renderMarkdownSummary } from '../report/markdown-summary.js';
import { renderVerdict } from '../report/verdict-text.js';
import { casesForPower } from '../stats/index.js';
import { makeResults, pattern } from '../test-support/results.js';
import { decideVerdict } from './decide.js';

const context: AnalysisContext = {
  runId: 'r', experiment: 'e', split: 'val', budget: 10_000, bestOfN: [1], baselineId: 'v2', candidateId: 'v3',
  gates: { minSameBudgetGain: 0.08, maxTokenGrowthRatio: 1.15, maxLatencyGrowthRatio: 1.3, bootstrapRounds: 1000, confidence: 0.95 },
  seed: 1, nonBindingArms: [],
};

function verdictOf(results: ResultRecord[], overrides: Partial<AnalysisContext> = {}) {
  return decideVerdict(analyzeResults(results, { ...context, ...overrides }));
}

function pair(cases: number, baseline: (i: number) => boolean, candidate: (i: number) => boolean, extra: { tokensB?: (i: number) => number; category?: (i: number) => string } = {}): ResultRecord[] {
  return makeResults({
    cases,
    ...(extra.category ? { category: extra.category } : {}),
    arms: [{ arm: 'baseline_single', passed: baseline }, { arm: 'candidate_single', passed: candidate, ...(extra.tokensB ? { tokens: extra.tokensB } : {}) }],
  });
}

/** Gives every result one path; `failing(result)` says which end in an error, and how. */
function withPaths(results: ResultRecord[], failing: (r: ResultRecord) => Pick<PathOutcome, 'finish_reason' | 'error'> | undefined): ResultRecord[] {
  return results.map((r) => {
    const failure = failing(r);
    const path: PathOutcome = { path: 0, output: failure ? '' : 'answer', passed: failure ? false : r.passed, score: r.passed ? 1 : 0, finish_reason: failure?.finish_reason ?? 'stop', tokens: 100, error: failure?.error };
    return { ...r, passed: failure ? false : r.passed, paths: [path] };
  });
}

const noNaN = (text: string): void => expect(text).not.toMatch(/NaN/);

describe('B is checked, or said to be unknown', () => {
  test('units billed 5,000 tokens against B=1000: invalid, counted, budget_respected fails', () => {
    const results = pair(40, pattern(0.5), (i) => pattern(0.5)(i) || pattern(0.3, 4)(i)).map((r) => ({ ...r, total_tokens: 5000, budget: Number.POSITIVE_INFINITY }));
    const v = verdictOf(results, { budget: 1000, budgetSource: 'flag' });
    expect(v.verdict).toBe('invalid');
    expect(v.invariants.over_budget_units).toBe(80);
    expect(v.arms.map((a) => a.overBudgetUnits)).toEqual([40, 40]);
    expect(v.checks.find((c) => c.name === 'budget_respected')).toMatchObject({ passed: false, detail: '80 (case, arm) units billed more than B=1000' });
    expect(v.same_budget).toMatchObject({ budget: 1000, budget_source: 'flag' });
  });

  test('B unknown: reported as unknown, no same-budget claim in the reason, the text or Markdown', () => {
    const results = pair(200, (i) => i < 120, (i) => i < 150).map((r) => ({ ...r, budget: Number.POSITIVE_INFINITY }));
    const v = verdictOf(results, { budget: undefined, budgetSource: 'unknown' });
    expect(v.same_budget).toMatchObject({ budget: null, budget_source: 'unknown' });
    expect(v.checks.find((c) => c.name === 'budget_respected')?.detail).toMatch(/^not checked: B is unknown/);
    expect(v.reason).toContain('pass@1 (B unknown)');
    expect(v.reason).not.toMatch(/same-budget/);
    expect(renderVerdict(v)).toContain('n=1, B unknown — not a same-budget comparison');
    expect(renderVerdict(v)).not.toMatch(/same budget/);
    expect(renderMarkdownSummary(v)).toContain('B unknown (not a same-budget comparison)');
    expect(renderMarkdownSummary(v)).not.toMatch(/B=200000|Same budget/);
  });
});

describe('a collapse is a regression', () => {
  test('100% → 0% on 40 cases, no categories, no regression set: regression (McNemar p = 2·2⁻⁴⁰)', () => {
    const v = verdictOf(pair(40, () => true, () => false));
    expect(v.same_budget?.mcnemar_p).toBeCloseTo(2 * 2 ** -40, 20);
    expect(v.categories).toEqual([]);
    expect(v.regression_set).toBeNull();
    expect(v.verdict).toBe('regression');
    expect(v.checks.find((c) => c.name === 'overall_not_worse')?.passed).toBe(false);
    expect(v.reason).toMatch(/^regression: overall_not_worse: n=1 pass rate 100\.0% → 0\.0%/);
  });

  test('whatever the categories say: a drop spread thinly over 8 categories, none worse on its own', () => {
    // 25 cases per category, 5 lost in each: no category significant after Bonferroni, the total is.
    const v = verdictOf(pair(200, () => true, (i) => i % 5 !== 0, { category: (i) => `cat-${i % 8}` }));
    expect(v.categories).toHaveLength(8);
    expect(v.categories.some((c) => c.worse)).toBe(false);
    expect(v.same_budget?.ci95?.[1]).toBeLessThan(0);
    expect(v.verdict).toBe('regression');
  });

  test('a small drop whose CI crosses 0 is not a regression', () => {
    const v = verdictOf(pair(200, (i) => i < 120, (i) => i < 118 || (i >= 120 && i < 121)));
    expect(v.same_budget?.ci95?.[1]).toBeGreaterThan(0);
    expect(v.verdict).toBe('no_gain');
  });
});

describe('arms made of errors are invalid', () => {
  test('every candidate path a provider error: invalid, counts per arm, the first message', () => {
    const results = withPaths(pair(30, pattern(0.6), pattern(0.6)), (r) => (r.variant === 'candidate' ? { finish_reason: 'error', error: `http_500: HTTP 500 from upstream (case ${r.case_id})` } : undefined));
    const v = verdictOf(results);
    expect(v.verdict).toBe('invalid');
    const check = v.checks.find((c) => c.name === 'error_rate');
    expect(check?.passed).toBe(false);
    expect(check?.detail).toContain('candidate_single above the error rate (max 5% of an arm\'s paths)');
    expect(check?.detail).toContain('candidate_single 30 of 30 paths (100%: 30 provider, 0 scorer, 0 timeout)');
    expect(check?.detail).toContain('baseline_single 0 of 30 paths');
    expect(check?.detail).toContain('first error (candidate_single): "http_500: HTTP 500 from upstream (case case-0000)"');
    expect(v.invariants.arm_errors).toEqual([
      { arm: 'baseline_single', paths: 30, errors: 0, provider_errors: 0, scorer_errors: 0, timeouts: 0, error_rate: 0, first_error: null },
      { arm: 'candidate_single', paths: 30, errors: 30, provider_errors: 30, scorer_errors: 0, timeouts: 0, error_rate: 1, first_error: '"http_500: HTTP 500 from upstream (case case-0000)"' },
    ]);
    expect(v.gates.max_error_rate).toBe(0.05);
    expect(renderVerdict(v)).toMatch(/errors\s*\n?.*candidate_single 30 of 30 paths/);
  });

  test('scorer errors and timeouts count; budget_exhausted does not; the rate is gates.max_error_rate', () => {
    const results = withPaths(pair(40, pattern(0.6), pattern(0.6)), (r) => {
      const i = Number(r.case_id.slice(5));
      if (r.variant === 'baseline' && i < 2) return { finish_reason: 'stop', error: "scorer field 'result' is set but expected is a string, not an object" };
      if (r.variant === 'baseline' && i === 2) return { finish_reason: 'error', error: 'timeout: request timed out after 500 ms' };
      if (r.variant === 'candidate' && i < 10) return { finish_reason: 'budget_exhausted', error: 'budget exhausted before the call' };
      return undefined;
    });
    const lenient = verdictOf(results, { gates: { ...context.gates, maxErrorRate: 0.1 } });
    expect(lenient.invariants.arm_errors[0]).toMatchObject({ arm: 'baseline_single', errors: 3, scorer_errors: 2, timeouts: 1, error_rate: 3 / 40 });
    expect(lenient.invariants.arm_errors[1]).toMatchObject({ arm: 'candidate_single', errors: 0 });
    expect(lenient.checks.find((c) => c.name === 'error_rate')?.passed).toBe(true);
    const strict = verdictOf(results);
    expect(strict.verdict).toBe('invalid');
    expect(strict.reason).toContain('baseline_single 3 of 40 paths (7.5%: 0 provider, 2 scorer, 1 timeout)');
  });

  test('an error message with terminal escapes is quoted, escaped and cut', () => {
    const results = withPaths(pair(10, pattern(0.6), pattern(0.6)), (r) => (r.variant === 'candidate' ? { finish_reason: 'error', error: `\u001b]52;c;cGF3bmVk\u0007\u001b[2J${'y'.repeat(500)}` } : undefined));
    const v = verdictOf(results);
    const first = v.invariants.arm_errors[1]?.first_error ?? '';
    expect(first).not.toMatch(/[\u0000-\u001f\u007f-\u009f]/);
    expect(first.startsWith('"\\u001b]52;c;cGF3bmVk\\u0007\\u001b[2J')).toBe(true);
    expect(first.endsWith('"…')).toBe(true);
    expect(v.reason).not.toMatch(/[\u0000-\u001f\u007f-\u009f]/);
  });
});

describe('reasons and undefined intervals', () => {
  test('a significant +7.5 pts gain below the minimum, tokens_per_success ×1.39: inconclusive, the interval still holds the minimum', () => {
    // 120 → 135 of 200 (+7.5 pts, 15 gained, none lost); candidate 156 tokens per case vs 100.
    const v = verdictOf(pair(200, (i) => i < 120, (i) => i < 135, { tokensB: () => 156 }));
    expect(v.same_budget?.delta).toBeCloseTo(0.075, 12);
    expect(v.same_budget?.ci95?.[0]).toBeGreaterThan(0);
    // Issue 24: no_gain only when the interval excludes the minimum gain (8 pts); Tango's upper bound is ~11.6 pts.
    expect(v.same_budget?.ci95?.[1]).toBeGreaterThan(0.08);
    expect(v.same_budget?.tokens_per_success_growth).toBeCloseTo((156 * 120) / (135 * 100), 12);
    expect(v.verdict).toBe('inconclusive');
    expect(v.reason).toContain('is below the minimum gain of +8.0 pts, but its interval still holds it');
  });

  test('a +2 pts gain whose interval excludes the minimum: no_gain says the gain is below it', () => {
    // 1,000 cases, 20 gained, none lost: Tango [+1.3, +3.1] pts, below the 8-pt minimum.
    const v = verdictOf(pair(1000, (i) => i < 600, (i) => i < 620, { tokensB: () => 156 }));
    expect(v.same_budget?.ci95?.[1]).toBeLessThan(0.08);
    expect(v.same_budget?.ci95?.[0]).toBeGreaterThan(0);
    expect(v.verdict).toBe('no_gain');
    expect(v.reason).toContain('gain below the minimum (+2.0 pts, CI above 0) and tokens_per_success ×1.51 (max ×1.15)');
  });

  test('a 1-case run: inconclusive with the cases needed, a finite score interval, no NaN anywhere', () => {
    const v = verdictOf(pair(1, () => true, () => false));
    expect(v.verdict).toBe('inconclusive');
    // Tango's interval exists at any n ≥ 1: one baseline-only pair gives [−1, z²/(1+z²) − …] ≈ [−1, +0.59].
    expect(v.same_budget?.ci_method).toBe('tango-score');
    expect(v.same_budget?.ci95?.[0]).toBe(-1);
    expect(v.same_budget?.ci95?.[1]).toBeCloseTo(0.5869, 3);
    expect(v.same_budget?.ci_percentile).toEqual([-1, -1]); // defined, if degenerate: every resample is the one case
    // Paired-z size at the minimum gain with the largest pass/fail SD (1): ((1.96 + 0.8416) / 0.08)² → 1227.
    const expected = casesForPower({ delta: 0.08, sdDiff: 1, alpha: 0.05, power: 0.8 });
    expect(expected).toBe(1227);
    expect(v.power).toMatchObject({ cases_for_80_power: expected, cases_now: 1, target_delta: 0.08, sd_assumed: true, sd_diff: null });
    expect(v.reason).toContain('about 1227 cases would give 80% power to detect the minimum gain');
    const json = JSON.stringify(v);
    for (const text of [json, v.reason, renderVerdict(v), renderMarkdownSummary(v), ...v.checks.map((c) => c.detail)]) noNaN(text);
  });

  test('a regression set of one case both arms fail: a wide score interval, not [NaN, NaN], and not worse', () => {
    const val = pair(100, (i) => i < 50, (i) => i < 70);
    const regression = makeResults({ cases: 1, split: 'regression', arms: [{ arm: 'baseline_single', passed: () => false }, { arm: 'candidate_single', passed: () => false }] });
    const v = verdictOf([...val, ...regression]);
    expect(v.regression_set).toMatchObject({ cases: 1, baseline_pass: 0, candidate_pass: 0, ci_method: 'tango-score', worse: false });
    expect(v.regression_set?.ci95?.[0]).toBeLessThan(-0.5);
    expect(v.verdict).toBe('real_evolution');
    noNaN(JSON.stringify(v));
    noNaN(v.checks.map((c) => c.detail).join('\n'));
  });
});
