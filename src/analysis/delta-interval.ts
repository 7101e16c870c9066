/**
 * The interval of a paired pass-rate delta and the test a verdict needs beside it, pure.
 * Which method depends on the outcomes and on whether cases are clustered:
 *
 * | outcomes          | clusters | interval                                   | test                       |
 * |-------------------|----------|--------------------------------------------|----------------------------|
 * | 0/1, one epoch    | none     | `tango-score` (Tango 1998)                 | exact McNemar              |
 * | 0/1, one epoch    | declared | `tango-score-clustered`: Tango on counts ÷ design effect (Rao & Scott 1992), held to t_{G−1} | clustered McNemar (Durkalski 2003) |
 * | fractions (epochs, scores) | none | `bca-bootstrap` (Efron 1987)          | —                          |
 * | fractions         | declared | `cluster-bootstrap` (BCa over clusters)    | —                          |
 *
 * The bootstrap over cases under-covers at small and skewed samples (69–90% at 20–30 cases in
 * issue 24's simulations) and collapses to [0, 0] when every pair is concordant; the score
 * interval holds ≥ 93.6% over the issue's whole grid (exact enumeration, delta-interval.test.ts).
 * Treating clustered cases as independent covers 40–85% (bench/coverage-grid.mjs).
 */
import { clusterLayout, clusteredMcNemarP, largestDesignEffect, pairedDesignEffect, type ClusterLayout } from '../stats/cluster-design.js';
import { mcnemarExactP, type Interval } from '../stats/index.js';
import { studentTCritical } from '../stats/student-t.js';
import { tangoInterval } from '../stats/tango-score.js';

export type CiMethod = 'tango-score' | 'tango-score-clustered' | 'bca-bootstrap' | 'cluster-bootstrap';

export interface DeltaInterval {
  ci: Interval;
  method: CiMethod;
  /** Exact (or clustered) McNemar p for 0/1 outcomes; undefined for fractional ones. */
  mcnemarP: number | undefined;
  discordant: { baselineOnly: number; candidateOnly: number } | undefined;
  /** Design effect used (Var_clustered / Var_iid, ≥ 1); undefined without clusters. */
  designEffect: number | undefined;
  /** Clusters G; undefined without clusters. */
  clusters: number | undefined;
}

/**
 * Cluster keys of paired cases, or undefined when no cluster holds two cases (then every
 * method is the independent one). A case without a key is a cluster of its own.
 */
export function clusterKeysOf(keys: ReadonlyArray<string | undefined>): string[] | undefined {
  const resolved = keys.map((key, i) => key ?? `\u0000case:${i}`);
  return new Set(resolved).size < resolved.length ? resolved : undefined;
}

/**
 * @param bootstrapCi the bootstrap's interval (BCa; over clusters when `clusters` is given),
 *   used only for fractional outcomes.
 */
export function pairedDeltaInterval(input: { baseline: ArrayLike<number>; candidate: ArrayLike<number>; clusters: readonly string[] | undefined; confidence: number; bootstrapCi: Interval }): DeltaInterval {
  const { baseline: a, candidate: b, confidence } = input;
  const n = a.length;
  const layout: ClusterLayout | undefined = input.clusters ? clusterLayout(input.clusters) : undefined;
  const groups = layout?.sizes.length;
  let binary = true;
  for (let i = 0; i < n && binary; i++) binary = (a[i] === 0 || a[i] === 1) && (b[i] === 0 || b[i] === 1);
  if (!binary) {
    return { ci: input.bootstrapCi, method: layout ? 'cluster-bootstrap' : 'bca-bootstrap', mcnemarP: undefined, discordant: undefined, designEffect: layout ? pairedDesignEffect(a, b, layout) : undefined, clusters: groups };
  }
  let baselineOnly = 0;
  let candidateOnly = 0;
  for (let i = 0; i < n; i++) {
    if (a[i] === 1 && b[i] === 0) baselineOnly += 1;
    if (a[i] === 0 && b[i] === 1) candidateOnly += 1;
  }
  const discordant = { baselineOnly, candidateOnly };
  if (!layout || groups === undefined) {
    return { ci: tangoInterval({ baselineOnly, candidateOnly, pairs: n }, confidence), method: 'tango-score', mcnemarP: mcnemarExactP(baselineOnly, candidateOnly), discordant, designEffect: undefined, clusters: undefined };
  }
  // One cluster leaves no degree of freedom for its variance: no interval, say so.
  if (groups < 2) return { ci: [Number.NaN, Number.NaN], method: 'tango-score-clustered', mcnemarP: 1, discordant, designEffect: largestDesignEffect(layout), clusters: groups };
  const effect = pairedDesignEffect(a, b, layout);
  const ci = tangoInterval({ baselineOnly: baselineOnly / effect, candidateOnly: candidateOnly / effect, pairs: n / effect }, confidence, studentTCritical(confidence, groups - 1));
  return { ci, method: 'tango-score-clustered', mcnemarP: clusteredMcNemarP(a, b, layout), discordant, designEffect: effect, clusters: groups };
}
