/** Maps an Analysis and a decision onto the verdict record's JSON shape, pure. */
import type { Analysis, BestOfNComparison } from '../analysis/analyze-run.js';
import { VERDICT_SCHEMA_VERSION, type BestOfNRecord, type Check, type VerdictName, type VerdictRecord } from './record.js';

export function buildRecord(analysis: Analysis, verdict: VerdictName, checks: Check[], power: VerdictRecord['power'], now: Date): VerdictRecord {
  const { context, sameBudget, invariants: inv } = analysis;
  const passes = sameBudget.passes;
  const tokens = sameBudget.tokens;
  const bestofn = analysis.bestOfN.map(bestOfNRecord);
  return {
    schema_version: VERDICT_SCHEMA_VERSION,
    run_id: context.runId,
    experiment: context.experiment,
    split: context.split,
    candidate_id: context.candidateId,
    baseline_id: context.baselineId,
    same_budget: passes
      ? {
          budget: context.budget,
          n: 1,
          cases: passes.cases,
          baseline_pass: passes.baselinePass,
          candidate_pass: passes.candidatePass,
          delta: passes.delta.value,
          ci95: passes.delta.ci,
          ci_percentile: passes.delta.ciPercentile,
          confidence: context.gates.gainConfidence ?? context.gates.confidence,
          se_bootstrap: passes.delta.se,
          se_paired: passes.sePaired,
          se_clustered: passes.seClustered ?? null,
          mcnemar_p: passes.mcnemarP ?? null,
          baseline_pass_wilson: passes.baselineWilson,
          candidate_pass_wilson: passes.candidateWilson,
          baseline_tokens_per_success: finite(tokens?.baselineTokensPerSuccess),
          candidate_tokens_per_success: finite(tokens?.candidateTokensPerSuccess),
          tokens_per_success_growth: finite(tokens?.tokensPerSuccessRatio.value),
          tokens_per_success_growth_ci95: tokens ? tokens.tokensPerSuccessRatio.ci : null,
          total_tokens_ratio: finite(tokens?.totalTokensRatio.value),
          p95_latency_ratio: finite(sameBudget.p95LatencyRatio),
        }
      : null,
    bestofn_off: { n: 1, delta: passes ? passes.delta.value : null },
    bestofn_on: bestofn.at(-1) ?? null,
    bestofn,
    categories: analysis.categories.map((c) => ({ category: c.category, cases: c.cases, baseline_pass: c.baselinePass, candidate_pass: c.candidatePass, delta: c.delta.value, ci: c.delta.ci, confidence: c.confidence, mcnemar_p: c.mcnemarP ?? null, worse: c.worse })),
    regression_set: analysis.regression
      ? { cases: analysis.regression.cases, baseline_pass: analysis.regression.comparison.baselinePass, candidate_pass: analysis.regression.comparison.candidatePass, delta: analysis.regression.comparison.delta.value, ci95: analysis.regression.comparison.delta.ci, worse: analysis.regression.worse, lost_cases: analysis.regression.lost }
      : null,
    arms: analysis.arms,
    invariants: { over_budget_units: inv.overBudgetUnits, missing_arms: inv.missingArms, mismatched_arms: inv.mismatchedArms, calls_missing_usage: inv.callsMissingUsage, units_missing_tokens: inv.unitsMissingTokens, non_binding_arms: inv.nonBindingArms },
    power,
    checks,
    gates: { min_same_budget_gain: context.gates.minSameBudgetGain, max_token_growth_ratio: context.gates.maxTokenGrowthRatio, max_latency_growth_ratio: context.gates.maxLatencyGrowthRatio, bootstrap_rounds: context.gates.bootstrapRounds, confidence: context.gates.confidence, ...(context.gates.gainConfidence === undefined ? {} : { gain_confidence: context.gates.gainConfidence }) },
    method: { pairing: 'case', interval: 'bca', also: 'percentile', rounds: analysis.settings.rounds, seed: analysis.settings.seed, prng: 'xoshiro128**', category_adjustment: 'bonferroni', pass_at_k: 'unbiased (Chen et al. 2021)' },
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
    ci95: c.selected.delta.ci,
    baseline_pass_at_n: c.baselinePassAtN,
    candidate_pass_at_n: c.candidatePassAtN,
    difference_in_differences: c.differenceInDifferences?.value ?? null,
    did_ci95: c.differenceInDifferences?.ci ?? null,
    total_tokens_ratio: finite(c.tokens?.totalTokensRatio.value),
    bestofn_ratio: finite(c.spendRatioVsSingle),
  };
}

/** JSON has no Infinity or NaN: an undefined ratio is null, and says so. */
function finite(value: number | undefined): number | null {
  return value === undefined || !Number.isFinite(value) ? null : value;
}
