/**
 * Gate layers 2–4 read off the test-split verdict (seed §6): (2) regression — cases the
 * baseline passes must not get worse, no category significantly worse; (3) significance —
 * the same-budget n=1 gain reaches the minimum and its CI excludes 0, on the test split;
 * (4) budget — tokens_per_success and p95 latency within their gates, and the Best-of-N the
 * candidate asks for. Pure: each returns the layer's recorded result.
 */
import type { GateLayerResult, LayerStatus } from '../memory/store/records.js';
import type { VerdictRecord } from '../verdict/record.js';
import { describeChange, type BudgetPolicy, type PolicyChange } from './budget-policy.js';

export type LayerOutcome = Pick<GateLayerResult, 'status' | 'summary' | 'details'>;

const f = (value: number | null | undefined, digits = 3): string => (value === null || value === undefined ? 'n/a' : value.toFixed(digits));
const signed = (value: number): string => `${value >= 0 ? '+' : ''}${value.toFixed(3)}`;

export function regressionLayer(verdict: VerdictRecord): LayerOutcome {
  const set = verdict.regression_set;
  const worseCategories = verdict.categories.filter((c) => c.worse).map((c) => c.category);
  const details = { verdict: verdict.verdict, regression_set: set, worse_categories: worseCategories };
  if (!set) return { status: 'failed', summary: 'no regression set: add `datasets.regression` (cases the baseline is known to pass)', details };
  const lost = set.lost_cases.length;
  if (set.worse || worseCategories.length > 0 || verdict.verdict === 'regression') {
    const parts = [set.worse ? `regression set worse: ${f(set.baseline_pass)} → ${f(set.candidate_pass)} (CI ${set.ci95 ? `[${f(set.ci95[0])}, ${f(set.ci95[1])}]` : 'n/a'})` : '', worseCategories.length ? `categories significantly worse: ${worseCategories.join(', ')}` : ''].filter(Boolean);
    return { status: 'failed', summary: `${parts.join('; ') || verdict.reason}; ${lost} regression case(s) lost`, details };
  }
  return { status: 'passed', summary: `${set.cases} regression cases: ${f(set.baseline_pass)} → ${f(set.candidate_pass)}, ${lost} lost, no category worse`, details };
}

export interface SignificanceContext {
  /** Uses of this test split so far, this one included. */
  testUses: number;
  maxTestUses: number | undefined;
}

export function significanceLayer(verdict: VerdictRecord, context: SignificanceContext): LayerOutcome {
  const same = verdict.same_budget;
  const gain = verdict.gates.min_same_budget_gain;
  const details: Record<string, unknown> = { split: verdict.split, test_run: verdict.run_id, verdict: verdict.verdict, min_same_budget_gain: gain, test_split_uses: context.testUses };
  const drift = context.testUses > 1 ? ` — this test split has now been used ${context.testUses} times; every look makes its verdicts more optimistic (eval drift): refresh it` : '';
  if (verdict.split !== 'test') return { status: 'failed', summary: `significance must be decided on the test split, not ${verdict.split}`, details };
  if (!same) return { status: 'failed', summary: `no same-budget n=1 comparison in the test run: ${verdict.reason}`, details };
  Object.assign(details, { delta: same.delta, ci95: same.ci95, cases: same.cases, mcnemar_p: same.mcnemar_p, confidence: same.confidence });
  const numbers = `n=1 delta ${signed(same.delta)}, ${Math.round(same.confidence * 100)}% CI ${same.ci95 ? `[${f(same.ci95[0])}, ${f(same.ci95[1])}]` : 'n/a'} on ${same.cases} test cases`;
  let status: LayerStatus = same.delta >= gain && same.ci95 !== null && same.ci95[0] > 0 ? 'passed' : 'failed';
  let why = status === 'passed' ? '' : same.delta < gain ? ` — below the minimum gain ${gain}` : same.ci95 === null ? ' — too few cases for an interval' : ' — the CI does not exclude 0';
  if (context.maxTestUses !== undefined && context.testUses > context.maxTestUses) {
    status = 'failed';
    why = ` — test split used ${context.testUses} times, more than --max-test-uses ${context.maxTestUses}`;
  }
  return { status, summary: `${numbers}${why}${drift}`, details };
}

export interface BudgetContext {
  baselinePolicy: BudgetPolicy;
  candidatePolicy: BudgetPolicy;
  changes: PolicyChange[];
}

export function budgetLayer(verdict: VerdictRecord, context: BudgetContext): LayerOutcome {
  const same = verdict.same_budget;
  const gates = verdict.gates;
  const growth = same?.tokens_per_success_growth ?? null;
  const latency = same?.p95_latency_ratio ?? null;
  const problems: string[] = [];
  if (growth === null) problems.push('tokens_per_success unknown (no successes, or usage missing)');
  else if (growth > gates.max_token_growth_ratio) problems.push(`tokens_per_success ×${f(growth, 2)} > ${gates.max_token_growth_ratio}`);
  if (latency !== null && latency > gates.max_latency_growth_ratio) problems.push(`p95 latency ×${f(latency, 2)} > ${gates.max_latency_growth_ratio}`);
  const details = {
    tokens_per_success: { baseline: same?.baseline_tokens_per_success ?? null, candidate: same?.candidate_tokens_per_success ?? null, growth, max: gates.max_token_growth_ratio },
    p95_latency_ratio: { value: latency, max: gates.max_latency_growth_ratio },
    best_of_n: { baseline: context.baselinePolicy.best_of_n, candidate: context.candidatePolicy.best_of_n },
    policy: { baseline: context.baselinePolicy, candidate: context.candidatePolicy },
    policy_changes: context.changes.map(describeChange),
  };
  const bestOfN = `Best-of-N in production: ${context.baselinePolicy.best_of_n} → ${context.candidatePolicy.best_of_n}`;
  const policy = context.changes.length ? `; budget policy changes need a human: ${context.changes.map(describeChange).join(', ')}` : '';
  if (problems.length) return { status: 'failed', summary: `${problems.join('; ')}${policy}`, details };
  return { status: 'passed', summary: `tokens_per_success ×${f(growth, 2)}, p95 latency ×${f(latency, 2)}, ${bestOfN}${policy}`, details };
}
