/**
 * Cluster bootstrap (Davison & Hinkley 1997, "Bootstrap Methods and their Application",
 * §3.8; Field & Welsh 2007, "Bootstrapping clustered data", JRSS-B 69:369–390): resample
 * whole clusters with replacement, so near-duplicate cases enter a resample together and the
 * interval sees the variance they really carry. Paired as before — every arm of a resample
 * sees the same clusters.
 *
 * Implemented on top of `pairedBootstrap`: each column is summed per cluster, a hidden column
 * holds the cluster's case count, and each statistic is evaluated with that count in place of
 * the number of resampled units. The BCa jackknife then leaves one cluster out at a time.
 */
import type { BootstrapEstimate } from './bootstrap-intervals.js';
import { pairedBootstrap, type PairedBootstrapInput } from './bootstrap.js';
import { clusterLayout } from './cluster-design.js';
import type { ClusterKey } from './paired-se.js';
import type { ColumnSums, SumStatistic } from './sum-statistics.js';

/** Name of the per-cluster case count column (not a valid user column name: it has a NUL). */
const CASES = '\u0000cases';

export function clusterBootstrap<C extends string, S extends string>(
  input: PairedBootstrapInput<C, S> & { clusters: ArrayLike<ClusterKey> },
): Record<S, BootstrapEstimate> {
  const layout = clusterLayout(input.clusters);
  const groups = layout.sizes.length;
  const names = Object.keys(input.columns) as C[];
  const columns: Record<string, Float64Array> = {};
  for (const name of names) {
    const source = input.columns[name];
    if (source.length !== input.clusters.length) throw new RangeError(`column ${name} has ${source.length} cases, clusters has ${input.clusters.length}`);
    const sums = new Float64Array(groups);
    for (let i = 0; i < source.length; i++) {
      const group = layout.index[i] as number;
      sums[group] = (sums[group] as number) + (source[i] as number);
    }
    columns[name] = sums;
  }
  columns[CASES] = Float64Array.from(layout.sizes);
  const statistics = {} as Record<S, SumStatistic<C | typeof CASES>>;
  for (const name of Object.keys(input.statistics) as S[]) {
    const statistic = input.statistics[name];
    statistics[name] = (sums) => statistic(sums as ColumnSums<C>, (sums as ColumnSums<typeof CASES>)[CASES]);
  }
  return pairedBootstrap({ columns: columns as Record<C | typeof CASES, Float64Array>, statistics, rounds: input.rounds, seed: input.seed, ...(input.confidence === undefined ? {} : { confidence: input.confidence }) });
}
