/**
 * Clusters of cases (near-duplicates, several questions on one document, one template):
 * their design effect and the cluster-robust paired test, pure.
 *
 * The design effect of a mean (Kish 1965) is Var_clustered / Var_iid: how many times fewer
 * independent cases the clustered sample is worth. Var_clustered is Miller's (2024, "Adding
 * Error Bars to Evals", arXiv:2411.00640) clustered variance with the CR1 small-sample factor
 * G/(G − 1) of Cameron & Miller (2015); Var_iid is s²/n of the same values.
 */
import type { ClusterKey } from './paired-se.js';
import { normalCdf } from './normal.js';

export interface ClusterLayout {
  /** Cluster index 0..G−1 of each case. */
  index: Int32Array;
  /** Cases per cluster. */
  sizes: Int32Array;
}

/** Numbers the clusters of `keys` in order of first appearance. */
export function clusterLayout(keys: ArrayLike<ClusterKey>): ClusterLayout {
  const ids = new Map<ClusterKey, number>();
  const index = new Int32Array(keys.length);
  const counts: number[] = [];
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i] as ClusterKey;
    let id = ids.get(key);
    if (id === undefined) {
      id = ids.size;
      ids.set(key, id);
      counts.push(0);
    }
    index[i] = id;
    counts[id] = (counts[id] as number) + 1;
  }
  return { index, sizes: Int32Array.from(counts) };
}

/**
 * The largest design effect the layout allows, Σ mᵍ² / n: every case of a cluster identical
 * (intra-cluster correlation 1). For G clusters of m cases it is m.
 */
export function largestDesignEffect(layout: ClusterLayout): number {
  let squares = 0;
  let n = 0;
  for (const size of layout.sizes) {
    squares += size * size;
    n += size;
  }
  return n === 0 ? 1 : squares / n;
}

/**
 * Design effect of the mean of `values` under `layout` (CR1 clustered variance over s²/n).
 *
 * @returns NaN when it is not estimable: fewer than two clusters, or no variance at all.
 */
export function designEffect(values: ArrayLike<number>, layout: ClusterLayout): number {
  const n = values.length;
  const clusters = layout.sizes.length;
  if (n < 2 || clusters < 2) return Number.NaN;
  let total = 0;
  for (let i = 0; i < n; i++) total += values[i] as number;
  const center = total / n;
  const residualSums = new Float64Array(clusters);
  let squares = 0;
  for (let i = 0; i < n; i++) {
    const residual = (values[i] as number) - center;
    squares += residual * residual;
    const group = layout.index[i] as number;
    residualSums[group] = (residualSums[group] as number) + residual;
  }
  if (!(squares > 0)) return Number.NaN;
  let clusterSquares = 0;
  for (const sum of residualSums) clusterSquares += sum * sum;
  const clustered = (clusters / (clusters - 1)) * clusterSquares / (n * n);
  const independent = squares / (n * (n - 1));
  return clustered / independent;
}

/**
 * Clusters with a discordant pair below which the design effect is not estimated (see
 * below). 8 rather than 5: with 5, 20 clusters of 10 at base 0.9, delta +0.1 covered 92.1%
 * (2,000 replications); with 8 every cell of the clustered grid covers ≥ 95.5%.
 */
export const MIN_INFORMATIVE_CLUSTERS = 8;

/**
 * The design effect a paired comparison uses: the largest of those of the per-case
 * difference and of each arm's own outcome, floored at 1 and capped at
 * {@link largestDesignEffect}.
 *
 * Why the arms too: when the candidate differs on few cases, the difference's own estimate
 * rests on a handful of discordant pairs and reads "no clustering" even when near-duplicate
 * cases pass and fail together; the arms' outcomes carry that evidence. A floor of 1 because
 * a negative within-cluster correlation estimated from few clusters is noise, not a license
 * to narrow the interval. When the discordant pairs fall in fewer than
 * {@link MIN_INFORMATIVE_CLUSTERS} clusters (every pair concordant included), the largest
 * effect is assumed: no evidence that the clusters are worth more than one case each.
 */
export function pairedDesignEffect(baseline: ArrayLike<number>, candidate: ArrayLike<number>, layout: ClusterLayout): number {
  const differences = Float64Array.from({ length: baseline.length }, (_, i) => (candidate[i] as number) - (baseline[i] as number));
  const largest = largestDesignEffect(layout);
  // A variance across clusters needs clusters that differ: with discordant pairs in fewer than
  // MIN_INFORMATIVE_CLUSTERS of them, the data cannot tell scattered from clustered
  // discordance (10 clusters of near-duplicates with a 10% discordance rate show none in
  // 35% of samples), so the worst case is assumed.
  const informative = new Set<number>();
  for (let i = 0; i < differences.length; i++) if (differences[i] !== 0) informative.add(layout.index[i] as number);
  if (informative.size < MIN_INFORMATIVE_CLUSTERS) return largest;
  const estimates = [designEffect(differences, layout), designEffect(baseline, layout), designEffect(candidate, layout)].filter(Number.isFinite);
  if (estimates.length === 0) return largest;
  return Math.min(largest, Math.max(1, ...estimates));
}

/**
 * Cluster-robust McNemar test: Durkalski, Palesch, Lipsitz & Rust (2003), "Analysis of
 * clustered matched-pair data", Statistics in Medicine 22:2417–2428:
 *
 *   X = (c − b) / √(Σᵍ (cᵍ − bᵍ)²),  p = 2·(1 − Φ(|X|)),
 *
 * with bᵍ, cᵍ the discordant pairs of cluster g. With every case its own cluster X² is the
 * McNemar χ² (c − b)²/(b + c).
 *
 * @returns 1 when there is no discordant pair or b = c.
 */
export function clusteredMcNemarP(baseline: ArrayLike<number>, candidate: ArrayLike<number>, layout: ClusterLayout): number {
  const perCluster = new Float64Array(layout.sizes.length);
  let net = 0;
  for (let i = 0; i < baseline.length; i++) {
    const difference = (candidate[i] as number) - (baseline[i] as number);
    const group = layout.index[i] as number;
    perCluster[group] = (perCluster[group] as number) + difference;
    net += difference;
  }
  let squares = 0;
  for (const value of perCluster) squares += value * value;
  if (net === 0 || squares === 0) return 1;
  const statistic = Math.abs(net) / Math.sqrt(squares);
  return Math.min(1, 2 * (1 - normalCdf(statistic)));
}
