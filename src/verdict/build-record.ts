/** Maps an Analysis and a decision onto the verdict record's JSON shape, pure. */
import type { Analysis, BestOfNComparison } from '../analysis/analyze-run.js';
import type { ArmMetrics } from '../analysis/arm-metrics.js';
import { errorRate } from '../analysis/path-errors.js';
import { quoteText } from '../core/quote-text.js';
import { maxErrorRate } from './error-rule.js';
import { VERDICT_SCHEMA_VERSION, type ArmErrorRecord, type BestOfNRecord, type Check, type Interval, type VerdictName, type VerdictRecord } from './record.js';

/** Characters of an error message kept in the verdict. */
const FIRST_ERROR_CHARS = 200;

export function buildRecord(analysis: Analysis, verdict: VerdictName, checks: Check[], power: VerdictRecord['power'], now: Date): VerdictRecord {
  const { context, sameBudget, invariants: inv } = analysis;
  const passes = sameBudget.passes;
  const tokens = sameBudget.tokens;
  const selector = analysis.context.selector;
  const bestofn = analysis.bestOfN.map((c) => ({ ...bestOfNRecord(c), ...(selector === undefined ? {} : { selector }) }));
  return {
    schema_version: VERDICT_SCHEMA_VERSION,
    run_id: context.runId,
    experiment: context.experiment,
    split: context.split,
    candidate_id: context.candidateId,
    baseline_id: context.baselineId,
    same_budget: passes
      ? {
          budget: context.budget ?? null,
          budget_source: context.budget === undefined ? 'unknown' : context.budgetSource ?? 'config',
          n: 1,
          cases: passes.cases,
          baseline_pass: passes.baselinePass,
          candidate_pass: passes.candidatePass,
          delta: passes.delta.value,
          ci95: interval(passes.delta.ci),
          ci_percentile: interval(passes.delta.ciPercentile),
          confidence: context.gates.gainConfidence ?? context.gates.confidence,
          ci_method: passes.delta.method,
          design_effect: passes.designEffect ?? null,
          clusters: passes.clusters ?? null,
          se_bootstrap: finite(passes.delta.se),
          se_paired: finite(passes.sePaired),
          se_clustered: passes.seClustered ?? null,
          mcnemar_p: passes.mcnemarP ?? null,
          baseline_pass_wilson: passes.baselineWilson,
          candidate_pass_wilson: passes.candidateWilson,
          baseline_tokens_per_success: finite(tokens?.baselineTokensPerSuccess),
          candidate_tokens_per_success: finite(tokens?.candidateTokensPerSuccess),
          tokens_per_success_growth: finite(tokens?.tokensPerSuccessRatio.value),
          tokens_per_success_growth_ci95: tokens && !Number.isNaN(tokens.tokensPerSuccessRatio.ci[0]) && !Number.isNaN(tokens.tokensPerSuccessRatio.ci[1]) ? tokens.tokensPerSuccessRatio.ci : null,
          tokens_per_success_growth_ci_method: tokens ? tokens.tokensPerSuccessRatio.method : null,
          total_tokens_ratio: finite(tokens?.totalTokensRatio.value),
          p95_latency_ratio: finite(sameBudget.p95LatencyRatio),
        }
      : null,
    bestofn_off: { n: 1, delta: passes ? passes.delta.value : null },
    bestofn_on: bestofn.at(-1) ?? null,
    bestofn,
    categories: analysis.categories.map((c) => ({ category: c.category, cases: c.cases, baseline_pass: c.baselinePass, candidate_pass: c.candidatePass, delta: c.delta.value, ci: interval(c.delta.ci), ci_method: c.delta.method, confidence: c.confidence, mcnemar_p: c.mcnemarP ?? null, worse: c.worse })),
    regression_set: analysis.regression
      ? { cases: analysis.regression.cases, baseline_pass: analysis.regression.comparison.baselinePass, candidate_pass: analysis.regression.comparison.candidatePass, delta: analysis.regression.comparison.delta.value, ci95: interval(analysis.regression.comparison.delta.ci), ci_method: analysis.regression.comparison.delta.method, worse: analysis.regression.worse, lost_cases: analysis.regression.lost }
      : null,
    arms: analysis.arms,
    invariants: {
      over_budget_units: inv.overBudgetUnits, missing_arms: inv.missingArms, mismatched_arms: inv.mismatchedArms, calls_missing_usage: inv.callsMissingUsage,
      units_missing_tokens: inv.unitsMissingTokens, calls_outcome_unknown: inv.callsOutcomeUnknown, outcome_unknown_tokens: inv.outcomeUnknownTokens,
      non_binding_arms: inv.nonBindingArms, arm_errors: analysis.arms.map(armErrorRecord),
    },
    power,
    checks,
    gates: { min_same_budget_gain: context.gates.minSameBudgetGain, max_token_growth_ratio: context.gates.maxTokenGrowthRatio, max_latency_growth_ratio: context.gates.maxLatencyGrowthRatio, bootstrap_rounds: context.gates.bootstrapRounds, confidence: context.gates.confidence, max_error_rate: maxErrorRate(context.gates), ...(context.gates.gainConfidence === undefined ? {} : { gain_confidence: context.gates.gainConfidence }) },
    method: { pairing: 'case', interval: 'bca', also: 'percentile', pass_fail: 'tango-score (Tango 1998) with exact McNemar', rounds: analysis.settings.rounds, seed: analysis.settings.seed, prng: 'xoshiro128**', category_adjustment: 'bonferroni', pass_at_k: 'unbiased (Chen et al. 2021)' },
    verdict,
    reason: '',
    created_at: now.toISOString(),
  };
}

function bestOfNRecord(c: BestOfNComparison): BestOfNRecord {
  return {
    n: c.n,
    cases: c.selected.cases,
    baseline_selected: c.selected.baselinePass,
    candidate_selected: c.selected.candidatePass,
    delta: c.selected.delta.value,
    ci95: interval(c.selected.delta.ci),
    ci_method: c.selected.delta.method,
    baseline_pass_at_n: c.baselinePassAtN,
    candidate_pass_at_n: c.candidatePassAtN,
    difference_in_differences: c.differenceInDifferences?.value ?? null,
    did_ci95: c.differenceInDifferences ? interval(c.differenceInDifferences.ci) : null,
    did_ci_method: c.differenceInDifferences?.method ?? null,
    total_tokens_ratio: finite(c.tokens?.totalTokensRatio.value),
    bestofn_ratio: finite(c.spendRatioVsSingle),
  };
}

function armErrorRecord(arm: ArmMetrics): ArmErrorRecord {
  const e = arm.errors;
  return {
    arm: arm.arm, paths: e.paths, errors: e.errors, provider_errors: e.provider, scorer_errors: e.scorer, timeouts: e.timeout,
    error_rate: errorRate(e), first_error: e.first === undefined ? null : quoteText(e.first, FIRST_ERROR_CHARS),
  };
}

/** An interval with an undefined end (too few cases) is null, never [NaN, NaN]; an infinite end is kept. */
function interval(ci: Interval): Interval | null {
  return Number.isNaN(ci[0]) || Number.isNaN(ci[1]) ? null : ci;
}

/** JSON has no Infinity or NaN: an undefined ratio is null, and says so. */
function finite(value: number | undefined): number | null {
  return value === undefined || !Number.isFinite(value) ? null : value;
}
