/**
 * Per-arm metrics (DESIGN §5), pure. pass@1 and pass@N are always computed together
 * (invariant 3); tokens are summed only where known (invariant 2) and the unknown counted.
 */
import type { ResultRecord } from '../ledger/records.js';
import { passAtK } from '../stats/pass-at-k.js';
import { quantile } from '../stats/quantile.js';
import { isOverBudget } from './over-budget.js';
import { armErrors, type ArmErrors } from './path-errors.js';

export interface ArmMetrics {
  arm: string;
  variant: 'baseline' | 'candidate';
  n: number;
  /** Distinct cases. */
  cases: number;
  /** (case, epoch) units. */
  units: number;
  /**
   * Per-path success rate: n=1 the arm's pass rate; n>1 the unbiased pass@1 over its n paths.
   * null when some unit's paths were never written one by one (`passes_unknown`: a ledger
   * row standing for n paths with one outcome) — never that outcome divided by n.
   */
  passAt1: number | null;
  /** Unbiased pass@k (Chen et al. 2021) for every k ≤ n; empty when `passAt1` is null. */
  passAtK: Record<number, number>;
  /** Any path passed: an oracle upper bound, never a product metric; null as `passAt1`. */
  passAtN: number | null;
  /** The selected path passed: what a product would ship. */
  selectedAtN: number;
  /** Mean billed tokens per case, over units with known usage (tokens). */
  meanTokensPerCase: number | undefined;
  /** Σ tokens / Σ successes, failed cases' tokens included (tokens). */
  tokensPerSuccess: number | undefined;
  meanOutputTokens: number | undefined;
  /**
   * Money beside the tokens (USD), for what `total_tokens` counts: Σ cost_usd over the units
   * with a known cost; null when none has one (no price for the model, or a ledger from
   * before prices). Budgets stay in tokens: this is reported, never gated on.
   */
  costUsd: number | null;
  /** Mean cost per unit over units with a known cost (USD). */
  costPerCaseUsd: number | null;
  /** Σ cost / Σ successes over units with a known cost, failed units' cost included (USD). */
  costPerSuccessUsd: number | null;
  /** Units whose cost is unknown: `costUsd` leaves them out (it is then a lower bound). */
  unitsMissingCost: number;
  latencyP50Ms: number | undefined;
  latencyP95Ms: number | undefined;
  /** Fraction of paths that ended budget_exhausted. */
  budgetExhaustedRate: number;
  callsMissingUsage: number;
  unitsMissingTokens: number;
  /** Units that billed more than B (B of the analysis when it has one, else the unit's own). */
  overBudgetUnits: number;
  calls: number;
  retries: number;
  /** Paths that ended in a provider error, a scorer error or a timeout. */
  errors: ArmErrors;
}

/** `budget`: B (tokens) the units are checked against; undefined: each unit's own `budget`. */
export function armMetrics(results: readonly ResultRecord[], budget?: number): ArmMetrics[] {
  const byArm = new Map<string, ResultRecord[]>();
  for (const result of results) {
    const list = byArm.get(result.arm);
    if (list) list.push(result);
    else byArm.set(result.arm, [result]);
  }
  return [...byArm.values()].map((records) => metricsOf(records, budget)).sort((a, b) => a.n - b.n || (a.variant === b.variant ? 0 : a.variant === 'baseline' ? -1 : 1));
}

function metricsOf(records: ResultRecord[], budget: number | undefined): ArmMetrics {
  const first = records[0] as ResultRecord;
  const n = first.n;
  const units = records.length;
  const cases = new Set(records.map((r) => r.case_id)).size;
  const passAt: Record<number, number> = {};
  const pathsKnown = !records.some((r) => r.passes_unknown === true);
  if (pathsKnown) for (let k = 1; k <= n; k += 1) passAt[k] = mean(records.map((r) => passAtK(n, r.passes, k)));
  const known = records.filter((r) => r.total_tokens !== undefined);
  const tokens = known.reduce((acc, r) => acc + (r.total_tokens ?? 0), 0);
  const successes = known.filter((r) => r.passed).length;
  const output = records.filter((r) => r.completion_tokens !== undefined);
  const priced = records.filter((r) => typeof r.cost_usd === 'number');
  const cost = priced.reduce((acc, r) => acc + (r.cost_usd ?? 0), 0);
  const pricedSuccesses = priced.filter((r) => r.passed).length;
  const latencies = records.map((r) => r.latency_ms);
  const paths = records.reduce((acc, r) => acc + r.paths.length, 0);
  const exhausted = records.reduce((acc, r) => acc + r.paths.filter((p) => p.finish_reason === 'budget_exhausted').length, 0);
  return {
    arm: first.arm,
    variant: first.variant,
    n,
    cases,
    units,
    passAt1: pathsKnown ? (passAt[1] ?? 0) : null,
    passAtK: passAt,
    passAtN: pathsKnown ? mean(records.map((r) => (r.passed_any ? 1 : 0))) : null,
    selectedAtN: mean(records.map((r) => (r.passed ? 1 : 0))),
    meanTokensPerCase: known.length === 0 ? undefined : tokens / known.length,
    tokensPerSuccess: successes === 0 ? undefined : tokens / successes,
    meanOutputTokens: output.length === 0 ? undefined : output.reduce((acc, r) => acc + (r.completion_tokens ?? 0), 0) / output.length,
    costUsd: priced.length === 0 ? null : cost,
    costPerCaseUsd: priced.length === 0 ? null : cost / priced.length,
    costPerSuccessUsd: pricedSuccesses === 0 ? null : cost / pricedSuccesses,
    unitsMissingCost: units - priced.length,
    latencyP50Ms: latencies.length === 0 ? undefined : quantile(latencies, 0.5),
    latencyP95Ms: latencies.length === 0 ? undefined : quantile(latencies, 0.95),
    budgetExhaustedRate: paths === 0 ? 0 : exhausted / paths,
    callsMissingUsage: records.reduce((acc, r) => acc + r.calls_missing_usage, 0),
    unitsMissingTokens: units - known.length,
    overBudgetUnits: records.filter((r) => isOverBudget(r, budget)).length,
    calls: records.reduce((acc, r) => acc + r.calls, 0),
    retries: records.reduce((acc, r) => acc + r.retries, 0),
    errors: armErrors(records),
  };
}

function mean(values: readonly number[]): number {
  return values.length === 0 ? 0 : values.reduce((a, b) => a + b, 0) / values.length;
}
