/**
 * Coverage of the paired pass-rate interval over a grid of designs (issue 24, "Must show"),
 * pure: the interval the verdict uses (analysis/delta-interval.ts), computed directly — no
 * bootstrap, no CLI — so a grid of 81 cells × 400+ replications runs in about a second.
 *
 * A cell is a base pass rate p_A, a true delta δ (p_B = min(1, p_A + δ)), a number of cases n
 * and a within-case correlation ρ: the Pearson correlation of the two arms' 0/1 outcomes on
 * one case, clamped to what the margins allow. That fixes the four pair probabilities
 * (both pass, baseline only, candidate only, both fail) and the true delta
 * P(candidate only) − P(baseline only).
 *
 * Clusters ("near-duplicates"): cases come in clusters of m; each cluster draws a prototype
 * pair, and each of its cases copies the prototype with probability `icc`, else draws its
 * own pair. Every case's pair still has the cell's distribution (so the true delta is
 * unchanged) while outcomes within a cluster agree — the templated-question design of
 * issue 24, where treating cases as independent covers 40–85%.
 */
import { pairedDeltaInterval } from '../analysis/delta-interval.js';
import { createRng, type Interval, type Rng } from '../stats/index.js';
import { tangoInterval } from '../stats/tango-score.js';

export interface CoverageCell {
  /** Baseline pass rate p_A. */
  base: number;
  /** Intended delta; p_B = min(1, base + delta). */
  delta: number;
  cases: number;
  /** Within-case correlation of the two arms' outcomes (clamped to the margins' range). */
  correlation: number;
  /** Cases per cluster (1: independent cases). */
  clusterSize?: number;
  /** Probability a case copies its cluster's prototype outcome pair. */
  icc?: number;
}

export interface PairProbabilities {
  bothPass: number;
  baselineOnly: number;
  candidateOnly: number;
  bothFail: number;
  /** P(candidate only) − P(baseline only). */
  trueDelta: number;
}

export function pairProbabilities(cell: CoverageCell): PairProbabilities {
  const pA = cell.base;
  const pB = Math.min(1, cell.base + cell.delta);
  const spread = Math.sqrt(pA * (1 - pA) * pB * (1 - pB));
  const bothPass = Math.min(Math.max(pA * pB + cell.correlation * spread, Math.max(0, pA + pB - 1)), Math.min(pA, pB));
  const baselineOnly = pA - bothPass;
  const candidateOnly = pB - bothPass;
  return { bothPass, baselineOnly, candidateOnly, bothFail: Math.max(0, 1 - bothPass - baselineOnly - candidateOnly), trueDelta: candidateOnly - baselineOnly };
}

/**
 * Exact coverage of the unclustered Tango interval: Σ over every (b, c) of the multinomial
 * probability of b baseline-only and c candidate-only pairs among n, where the interval holds
 * the true delta. No Monte-Carlo error.
 */
export function exactTangoCoverage(cell: CoverageCell, confidence = 0.95): number {
  const p = pairProbabilities(cell);
  const n = cell.cases;
  const logFactorial = new Float64Array(n + 1);
  for (let k = 2; k <= n; k++) logFactorial[k] = (logFactorial[k - 1] as number) + Math.log(k);
  const logTerm = (count: number, probability: number): number => (count === 0 ? 0 : probability > 0 ? count * Math.log(probability) : Number.NEGATIVE_INFINITY);
  const concordant = p.bothPass + p.bothFail;
  let covered = 0;
  for (let b = 0; b <= n; b++) {
    for (let c = 0; b + c <= n; c++) {
      const log = (logFactorial[n] as number) - (logFactorial[b] as number) - (logFactorial[c] as number) - (logFactorial[n - b - c] as number) + logTerm(b, p.baselineOnly) + logTerm(c, p.candidateOnly) + logTerm(n - b - c, concordant);
      if (log === Number.NEGATIVE_INFINITY) continue;
      if (holds(tangoInterval({ baselineOnly: b, candidateOnly: c, pairs: n }, confidence), p.trueDelta)) covered += Math.exp(log);
    }
  }
  return covered;
}

export interface SimulatedCoverage {
  replications: number;
  /** Share of replications whose interval (the verdict's method) held the true delta. */
  coverage: number;
  /** The same with the cluster field ignored (cases treated as independent). */
  coverageIgnoringClusters: number;
  /** Mean design effect the clustered interval used (1 without clusters). */
  meanDesignEffect: number;
}

/** Monte-Carlo coverage of the verdict's interval in one cell, seeded. */
export function simulateCoverage(cell: CoverageCell, replications: number, seed: number, confidence = 0.95): SimulatedCoverage {
  const rng = createRng(seed);
  const p = pairProbabilities(cell);
  const n = cell.cases;
  const size = Math.max(1, cell.clusterSize ?? 1);
  const icc = cell.icc ?? 0;
  const baseline = new Float64Array(n);
  const candidate = new Float64Array(n);
  const clusters = Array.from({ length: n }, (_, i) => `g${Math.floor(i / size)}`);
  const noBootstrap: Interval = [Number.NaN, Number.NaN];
  let hits = 0;
  let hitsIgnoring = 0;
  let effects = 0;
  for (let rep = 0; rep < replications; rep++) {
    let prototype = 0;
    for (let i = 0; i < n; i++) {
      if (i % size === 0) prototype = drawPair(rng, p);
      const pair = size > 1 && rng.next() < icc ? prototype : drawPair(rng, p);
      baseline[i] = pair === 0 || pair === 1 ? 1 : 0;
      candidate[i] = pair === 0 || pair === 2 ? 1 : 0;
    }
    const clustered = pairedDeltaInterval({ baseline, candidate, clusters: size > 1 ? clusters : undefined, confidence, bootstrapCi: noBootstrap });
    if (holds(clustered.ci, p.trueDelta)) hits++;
    effects += clustered.designEffect ?? 1;
    if (size > 1) {
      const independent = pairedDeltaInterval({ baseline, candidate, clusters: undefined, confidence, bootstrapCi: noBootstrap });
      if (holds(independent.ci, p.trueDelta)) hitsIgnoring++;
    } else if (holds(clustered.ci, p.trueDelta)) hitsIgnoring++;
  }
  return { replications, coverage: hits / replications, coverageIgnoringClusters: hitsIgnoring / replications, meanDesignEffect: effects / replications };
}

/** 0 both pass, 1 baseline only, 2 candidate only, 3 both fail. */
function drawPair(rng: Rng, p: PairProbabilities): number {
  const u = rng.next();
  if (u < p.bothPass) return 0;
  if (u < p.bothPass + p.baselineOnly) return 1;
  if (u < p.bothPass + p.baselineOnly + p.candidateOnly) return 2;
  return 3;
}

/** Holds the truth, with a tolerance for the bisection's last bit. */
function holds(ci: Interval, truth: number): boolean {
  return ci[0] <= truth + 1e-9 && truth - 1e-9 <= ci[1];
}

/** Issue 24's grid: base 0.1/0.5/0.9 × delta 0/0.05/0.1 × 20/50/100 cases × correlation 0/0.5/0.9. */
export function issueGrid(): CoverageCell[] {
  const cells: CoverageCell[] = [];
  for (const base of [0.1, 0.5, 0.9]) for (const delta of [0, 0.05, 0.1]) for (const cases of [20, 50, 100]) for (const correlation of [0, 0.5, 0.9]) cells.push({ base, delta, cases, correlation });
  return cells;
}

/**
 * The clustered grid: base × delta as above, correlation 0.5, near-duplicate clusters of 5
 * (100 cases) and of 10 (200 cases), icc 0.5 and 0.9.
 */
export function clusteredGrid(): CoverageCell[] {
  const cells: CoverageCell[] = [];
  for (const base of [0.1, 0.5, 0.9]) {
    for (const delta of [0, 0.05, 0.1]) {
      for (const [cases, clusterSize] of [[100, 5], [200, 10]] as const) for (const icc of [0.5, 0.9]) cells.push({ base, delta, cases, correlation: 0.5, clusterSize, icc });
    }
  }
  return cells;
}
