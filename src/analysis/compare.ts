/**
 * Paired comparisons of arms (DESIGN §5), pure. Every comparison resamples cases with the
 * same seed, so all arms of one resample see the same cases (the paired bootstrap) — whole
 * clusters of them when the dataset declares clusters (the cluster bootstrap).
 * A pass/fail delta's interval is Tango's score interval (delta-interval.ts); continuous
 * quantities and ratios keep the BCa interval (Efron 1987) with the percentile one beside it.
 */
import { clusterBootstrap } from '../stats/cluster-bootstrap.js';
import {
  clusteredStandardError,
  differenceInDifferences,
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
import { clusterKeysOf, pairedDeltaInterval, type CiMethod } from './delta-interval.js';

export interface BootstrapSettings {
  rounds: number;
  seed: number;
  confidence: number;
}

export interface Estimate {
  value: number;
  /** The interval at the comparison's confidence, by `method`. */
  ci: Interval;
  /** How `ci` was computed (`tango-score`, `tango-score-clustered`, `bca-bootstrap`, `cluster-bootstrap`). */
  method: CiMethod;
  ciPercentile: Interval;
  /** Bootstrap standard error (over clusters when clustered). */
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
  /** Exact McNemar p on discordant pairs (clustered: Durkalski 2003), only for single-epoch 0/1 outcomes. */
  mcnemarP: number | undefined;
  discordant: { baselineOnly: number; candidateOnly: number } | undefined;
  /** Var_clustered / Var_iid of the delta (≥ 1), when cases carry clusters; else undefined. */
  designEffect: number | undefined;
  /** Clusters the cases fall in, when clustered. */
  clusters: number | undefined;
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

/** `shared`: this delta from a bootstrap over the same cases and seed (see shared-bootstrap.ts; never with clusters). */
export function comparePasses(baseline: ArmCases, candidate: ArmCases, names: [string, string], settings: BootstrapSettings, shared?: BootstrapEstimate): PassComparison | undefined {
  const ids = sharedCases(new Map([[names[0], baseline], [names[1], candidate]]), names);
  if (ids.length === 0) return undefined;
  const a = column(baseline, ids, (r) => r.pass);
  const b = column(candidate, ids, (r) => r.pass);
  const clusters = clusterKeysOf(ids.map((id) => candidate.get(id)?.cluster ?? baseline.get(id)?.cluster));
  const statistics = { delta: meanDifference({ candidate: 'b', baseline: 'a' }) };
  const boot = shared && !clusters ? shared : clusters ? clusterBootstrap({ columns: { a, b }, statistics, clusters, ...settings }).delta : pairedBootstrap({ columns: { a, b }, statistics, ...settings }).delta;
  const n = ids.length;
  const sumA = a.reduce((x, y) => x + y, 0);
  const sumB = b.reduce((x, y) => x + y, 0);
  const interval = pairedDeltaInterval({ baseline: a, candidate: b, clusters, confidence: settings.confidence, bootstrapCi: boot.bca });
  return {
    baselineArm: names[0],
    candidateArm: names[1],
    cases: n,
    baselinePass: sumA / n,
    candidatePass: sumB / n,
    baselineWilson: wilsonInterval(Math.round(sumA), n, settings.confidence),
    candidateWilson: wilsonInterval(Math.round(sumB), n, settings.confidence),
    delta: { ...toEstimate(boot, clusters ? 'cluster-bootstrap' : 'bca-bootstrap'), value: (sumB - sumA) / n, ci: interval.ci, method: interval.method },
    sePaired: n > 1 ? pairedStandardError(a, b) : Number.NaN,
    seClustered: clusters ? clusteredStandardError(b.map((v, i) => v - (a[i] ?? 0)), clusters) : undefined,
    sdDiff: n > 1 ? pairedDifferenceSd(a, b) : Number.NaN,
    mcnemarP: interval.mcnemarP,
    discordant: interval.discordant,
    designEffect: interval.designEffect,
    clusters: interval.clusters,
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
  const clusters = clusterKeysOf(ids.map((id) => candidate.get(id)?.cluster ?? baseline.get(id)?.cluster));
  const columns = {
    tokA: column(baseline, ids, (r) => r.tokens ?? 0),
    tokB: column(candidate, ids, (r) => r.tokens ?? 0),
    okA: column(baseline, ids, (r) => r.pass),
    okB: column(candidate, ids, (r) => r.pass),
  };
  const statistics = {
    tps: ratioOfRatios({ candidate: { numerator: 'tokB', denominator: 'okB' }, baseline: { numerator: 'tokA', denominator: 'okA' } }),
    total: ratioOfSums({ numerator: 'tokB', denominator: 'tokA' }),
  };
  const estimates = clusters ? clusterBootstrap({ columns, statistics, clusters, ...settings }) : shared ?? pairedBootstrap({ columns, statistics, ...settings });
  const method: CiMethod = clusters ? 'cluster-bootstrap' : 'bca-bootstrap';
  const sum = (values: Float64Array): number => values.reduce((x, y) => x + y, 0);
  return {
    cases: ids.length,
    baselineTokensPerSuccess: sum(columns.tokA) / sum(columns.okA),
    candidateTokensPerSuccess: sum(columns.tokB) / sum(columns.okB),
    tokensPerSuccessRatio: toEstimate(estimates.tps, method),
    totalTokensRatio: toEstimate(estimates.total, method),
    baselineTokens: sum(columns.tokA),
    candidateTokens: sum(columns.tokB),
  };
}

/** (D−C) − (B−A) over the cases all four arms share. */
export function differenceInDifferencesOf(arms: { a: ArmCases; b: ArmCases; c: ArmCases; d: ArmCases }, settings: BootstrapSettings, shared?: BootstrapEstimate): Estimate | undefined {
  const table = new Map(Object.entries(arms));
  const ids = sharedCases(table, ['a', 'b', 'c', 'd']);
  if (ids.length === 0) return undefined;
  const clusters = clusterKeysOf(ids.map((id) => arms.b.get(id)?.cluster ?? arms.a.get(id)?.cluster));
  if (shared && !clusters) return toEstimate(shared, 'bca-bootstrap');
  const columns = {
    a: column(arms.a, ids, (r) => r.pass),
    b: column(arms.b, ids, (r) => r.pass),
    c: column(arms.c, ids, (r) => r.pass),
    d: column(arms.d, ids, (r) => r.pass),
  };
  const statistics = { did: differenceInDifferences({ a: 'a', b: 'b', c: 'c', d: 'd' }) };
  if (clusters) return toEstimate(clusterBootstrap({ columns, statistics, clusters, ...settings }).did, 'cluster-bootstrap');
  return toEstimate(pairedBootstrap({ columns, statistics, ...settings }).did, 'bca-bootstrap');
}

/** p95 latency ratio candidate / baseline (point estimate; latency gates compare it). */
export function p95LatencyRatio(baseline: ArmCases, candidate: ArmCases): number | undefined {
  const p95 = (cases: ArmCases): number | undefined => quantile([...cases.values()].map((r) => r.latencyMs), 0.95);
  const a = p95(baseline);
  const b = p95(candidate);
  return a === undefined || b === undefined || a === 0 ? undefined : b / a;
}

export function toEstimate(estimate: BootstrapEstimate, method: 'bca-bootstrap' | 'cluster-bootstrap'): Estimate {
  return { value: estimate.estimate, ci: estimate.bca, method, ciPercentile: estimate.percentile, se: estimate.standardError, undefinedRounds: estimate.undefinedRounds };
}
