/**
 * Paired comparisons of arms (DESIGN §5), pure. Every comparison resamples cases with the
 * same seed, so all arms of one resample see the same cases (the paired bootstrap).
 * Intervals are BCa (Efron 1987) with the percentile interval kept beside it.
 */
import {
  clusteredStandardError,
  differenceInDifferences,
  mcnemarExactP,
  meanDifference,
  pairedBootstrap,
  pairedDifferenceSd,
  pairedStandardError,
  quantile,
  ratioOfRatios,
  ratioOfSums,
  wilsonInterval,
  type BootstrapEstimate,
  type Interval,
} from '../stats/index.js';
import { column, sharedCases, type ArmCases } from './case-table.js';

export interface BootstrapSettings {
  rounds: number;
  seed: number;
  confidence: number;
}

export interface Estimate {
  value: number;
  /** BCa interval. */
  ci: Interval;
  ciPercentile: Interval;
  /** Bootstrap standard error. */
  se: number;
  /** Resamples where the statistic was undefined (0/0) and was dropped. */
  undefinedRounds: number;
}

export interface PassComparison {
  baselineArm: string;
  candidateArm: string;
  cases: number;
  baselinePass: number;
  candidatePass: number;
  baselineWilson: Interval;
  candidateWilson: Interval;
  delta: Estimate;
  /** Paired-CLT standard error of the delta (Miller 2024), a cross-check of the bootstrap. */
  sePaired: number;
  /** Clustered standard error when cases carry a cluster key (Miller 2024), else undefined. */
  seClustered: number | undefined;
  /** SD of per-case differences: the input of the power calculation. */
  sdDiff: number;
  /** Exact McNemar p on discordant pairs (only for single-epoch 0/1 outcomes). */
  mcnemarP: number | undefined;
  discordant: { baselineOnly: number; candidateOnly: number } | undefined;
}

export interface TokenComparison {
  /** Cases where both arms' tokens are known. */
  cases: number;
  baselineTokensPerSuccess: number;
  candidateTokensPerSuccess: number;
  /** candidate tokens_per_success / baseline tokens_per_success. */
  tokensPerSuccessRatio: Estimate;
  /** Σ candidate tokens / Σ baseline tokens: realized spend, always shown (invariant 4). */
  totalTokensRatio: Estimate;
  baselineTokens: number;
  candidateTokens: number;
}

/** `shared`: this delta from a bootstrap over the same cases and seed (see shared-bootstrap.ts). */
export function comparePasses(baseline: ArmCases, candidate: ArmCases, names: [string, string], settings: BootstrapSettings, shared?: BootstrapEstimate): PassComparison | undefined {
  const ids = sharedCases(new Map([[names[0], baseline], [names[1], candidate]]), names);
  if (ids.length === 0) return undefined;
  const a = column(baseline, ids, (r) => r.pass);
  const b = column(candidate, ids, (r) => r.pass);
  const delta = shared ?? pairedBootstrap({ columns: { a, b }, statistics: { delta: meanDifference({ candidate: 'b', baseline: 'a' }) }, ...settings }).delta;
  const n = ids.length;
  const sumA = a.reduce((x, y) => x + y, 0);
  const sumB = b.reduce((x, y) => x + y, 0);
  const binary = [...a, ...b].every((v) => v === 0 || v === 1);
  let discordant: PassComparison['discordant'];
  if (binary) {
    let baselineOnly = 0;
    let candidateOnly = 0;
    for (let i = 0; i < n; i += 1) {
      if (a[i] === 1 && b[i] === 0) baselineOnly += 1;
      if (a[i] === 0 && b[i] === 1) candidateOnly += 1;
    }
    discordant = { baselineOnly, candidateOnly };
  }
  const clusters = ids.map((id) => candidate.get(id)?.cluster);
  const clustered = clusters.every((c) => c !== undefined) && new Set(clusters).size < n;
  return {
    baselineArm: names[0],
    candidateArm: names[1],
    cases: n,
    baselinePass: sumA / n,
    candidatePass: sumB / n,
    baselineWilson: wilsonInterval(Math.round(sumA), n, settings.confidence),
    candidateWilson: wilsonInterval(Math.round(sumB), n, settings.confidence),
    delta: toEstimate(delta),
    sePaired: n > 1 ? pairedStandardError(a, b) : Number.NaN,
    seClustered: clustered ? clusteredStandardError(b.map((v, i) => v - (a[i] ?? 0)), clusters as string[]) : undefined,
    sdDiff: n > 1 ? pairedDifferenceSd(a, b) : Number.NaN,
    mcnemarP: discordant ? mcnemarExactP(discordant.baselineOnly, discordant.candidateOnly) : undefined,
    discordant,
  };
}

/**
 * The candidate is significantly worse: the interval's upper bound is below 0 AND, for 0/1
 * outcomes, the exact McNemar test agrees at level `alpha` — the bootstrap alone is
 * overconfident on the few cases a category or a small run has. An undefined interval (too
 * few cases) is never "worse".
 */
export function significantlyWorse(comparison: PassComparison, alpha: number): boolean {
  const agrees = comparison.mcnemarP === undefined || comparison.mcnemarP < alpha;
  return comparison.delta.ci[1] < 0 && agrees;
}

export function compareTokens(baseline: ArmCases, candidate: ArmCases, settings: BootstrapSettings, shared?: { tps: BootstrapEstimate; total: BootstrapEstimate }): TokenComparison | undefined {
  const ids = [...baseline.keys()].filter((id) => baseline.get(id)?.tokens !== undefined && candidate.get(id)?.tokens !== undefined).sort();
  if (ids.length === 0) return undefined;
  const columns = {
    tokA: column(baseline, ids, (r) => r.tokens ?? 0),
    tokB: column(candidate, ids, (r) => r.tokens ?? 0),
    okA: column(baseline, ids, (r) => r.pass),
    okB: column(candidate, ids, (r) => r.pass),
  };
  const estimates = shared ?? pairedBootstrap({
    columns,
    statistics: {
      tps: ratioOfRatios({ candidate: { numerator: 'tokB', denominator: 'okB' }, baseline: { numerator: 'tokA', denominator: 'okA' } }),
      total: ratioOfSums({ numerator: 'tokB', denominator: 'tokA' }),
    },
    ...settings,
  });
  const sum = (values: Float64Array): number => values.reduce((x, y) => x + y, 0);
  return {
    cases: ids.length,
    baselineTokensPerSuccess: sum(columns.tokA) / sum(columns.okA),
    candidateTokensPerSuccess: sum(columns.tokB) / sum(columns.okB),
    tokensPerSuccessRatio: toEstimate(estimates.tps),
    totalTokensRatio: toEstimate(estimates.total),
    baselineTokens: sum(columns.tokA),
    candidateTokens: sum(columns.tokB),
  };
}

/** (D−C) − (B−A) over the cases all four arms share. */
export function differenceInDifferencesOf(arms: { a: ArmCases; b: ArmCases; c: ArmCases; d: ArmCases }, settings: BootstrapSettings, shared?: BootstrapEstimate): Estimate | undefined {
  const table = new Map(Object.entries(arms));
  const ids = sharedCases(table, ['a', 'b', 'c', 'd']);
  if (ids.length === 0) return undefined;
  if (shared) return toEstimate(shared);
  const columns = {
    a: column(arms.a, ids, (r) => r.pass),
    b: column(arms.b, ids, (r) => r.pass),
    c: column(arms.c, ids, (r) => r.pass),
    d: column(arms.d, ids, (r) => r.pass),
  };
  const { did } = pairedBootstrap({ columns, statistics: { did: differenceInDifferences({ a: 'a', b: 'b', c: 'c', d: 'd' }) }, ...settings });
  return toEstimate(did);
}

/** p95 latency ratio candidate / baseline (point estimate; latency gates compare it). */
export function p95LatencyRatio(baseline: ArmCases, candidate: ArmCases): number | undefined {
  const p95 = (cases: ArmCases): number | undefined => quantile([...cases.values()].map((r) => r.latencyMs), 0.95);
  const a = p95(baseline);
  const b = p95(candidate);
  return a === undefined || b === undefined || a === 0 ? undefined : b / a;
}

export function toEstimate(estimate: BootstrapEstimate): Estimate {
  return { value: estimate.estimate, ci: estimate.bca, ciPercentile: estimate.percentile, se: estimate.standardError, undefinedRounds: estimate.undefinedRounds };
}
