/**
 * Points of the iso-budget picture, pure: every arm's pass rate (y) against its mean tokens
 * per case (x), with a Wilson interval on the rate and a normal interval on the mean tokens,
 * plus the Pareto frontier over the product metrics and the baseline→candidate moves.
 */
import type { ArmMetrics } from '../../analysis/arm-metrics.js';
import type { ResultRecord } from '../../ledger/records.js';
import { normalQuantile, wilsonInterval } from '../../stats/index.js';
import { armLetter } from './arm-labels.js';

export type PointMetric = 'pass@1' | 'selected@N' | 'pass@N (oracle)';

export interface IsoBudgetPoint {
  arm: string;
  label: string;
  variant: 'baseline' | 'candidate';
  n: number;
  metric: PointMetric;
  /** What a product ships (pass@1 at n=1, selected@N at n=N); the oracle is an upper bound. */
  product: boolean;
  rate: number;
  rateLow: number;
  rateHigh: number;
  /** Mean billed tokens per case (tokens). */
  tokens: number;
  tokensLow: number;
  tokensHigh: number;
}

export interface IsoBudgetData {
  points: IsoBudgetPoint[];
  /** Product points not dominated by another (fewer tokens and at least the pass rate), by tokens. */
  frontier: IsoBudgetPoint[];
  /** Baseline → candidate at each n (product metric). */
  moves: Array<{ n: number; from: IsoBudgetPoint; to: IsoBudgetPoint }>;
}

export function isoBudgetData(arms: readonly ArmMetrics[], results: readonly ResultRecord[], confidence: number): IsoBudgetData {
  const allN = arms.map((a) => a.n);
  const tokensByArm = new Map<string, number[]>();
  for (const r of results) {
    if (r.split === 'regression' || r.total_tokens === undefined) continue;
    const list = tokensByArm.get(r.arm);
    if (list) list.push(r.total_tokens);
    else tokensByArm.set(r.arm, [r.total_tokens]);
  }
  const points: IsoBudgetPoint[] = [];
  for (const arm of arms) {
    if (arm.meanTokensPerCase === undefined) continue;
    const spread = meanInterval(tokensByArm.get(arm.arm) ?? [], arm.meanTokensPerCase, confidence);
    // Wilson needs a count of independent trials: with epochs the units of one case are
    // repeated measures of it, so the cases (not the units) are the trials.
    const trials = arm.units === arm.cases ? arm.units : arm.cases;
    const point = (metric: PointMetric, rate: number, product: boolean): IsoBudgetPoint => {
      const [rateLow, rateHigh] = wilsonInterval(Math.round(rate * trials), trials, confidence);
      return { arm: arm.arm, label: armLetter(arm, allN), variant: arm.variant, n: arm.n, metric, product, rate, rateLow, rateHigh, tokens: arm.meanTokensPerCase ?? 0, tokensLow: spread[0], tokensHigh: spread[1] };
    };
    if (arm.n === 1) points.push(point('pass@1', arm.selectedAtN, true));
    else {
      points.push(point('selected@N', arm.selectedAtN, true));
      // Unknown when the ledger wrote one outcome for the n paths: no point rather than a guess.
      if (arm.passAtN !== null) points.push(point('pass@N (oracle)', arm.passAtN, false));
    }
  }
  const product = points.filter((p) => p.product);
  const moves: IsoBudgetData['moves'] = [];
  for (const n of [...new Set(product.map((p) => p.n))].sort((a, b) => a - b)) {
    const from = product.find((p) => p.n === n && p.variant === 'baseline');
    const to = product.find((p) => p.n === n && p.variant === 'candidate');
    if (from && to) moves.push({ n, from, to });
  }
  return { points, frontier: paretoFrontier(product), moves };
}

export function paretoFrontier(points: readonly IsoBudgetPoint[]): IsoBudgetPoint[] {
  const sorted = [...points].sort((a, b) => a.tokens - b.tokens || b.rate - a.rate);
  const frontier: IsoBudgetPoint[] = [];
  let best = Number.NEGATIVE_INFINITY;
  for (const p of sorted) {
    if (p.rate > best) {
      frontier.push(p);
      best = p.rate;
    }
  }
  return frontier;
}

/** Normal interval of a mean (CLT; hundreds of cases make it adequate for a picture). */
function meanInterval(values: readonly number[], mean: number, confidence: number): [number, number] {
  if (values.length < 2) return [mean, mean];
  const variance = values.reduce((acc, v) => acc + (v - mean) ** 2, 0) / (values.length - 1);
  const half = normalQuantile(1 - (1 - confidence) / 2) * Math.sqrt(variance / values.length);
  return [Math.max(0, mean - half), mean + half];
}
