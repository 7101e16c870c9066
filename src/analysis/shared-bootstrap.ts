/**
 * One paired bootstrap for all of a run's comparisons when every arm ran the same cases with
 * known tokens. Each comparison otherwise redraws the same indices (same seed, same n, same
 * case order): at 10,000 cases × 2,000 rounds one draw pass costs ~0.2 s, and best_of_n [1, 8]
 * made seven. Estimates are bit-identical to the separate calls: the indices and the column
 * sums are the same, only drawn once.
 */
import { differenceInDifferences, meanDifference, pairedBootstrap, ratioOfRatios, ratioOfSums, type BootstrapEstimate, type SumStatistic } from '../stats/index.js';
import { column, type ArmCases } from './case-table.js';
import type { BootstrapSettings } from './compare.js';
import { clusterKeysOf } from './delta-interval.js';

export type SharedEstimates = Map<string, BootstrapEstimate>;

export const passKey = (baseline: string, candidate: string): string => `delta:${baseline}:${candidate}`;
export const tokensKey = (kind: 'tps' | 'total', baseline: string, candidate: string): string => `${kind}:${baseline}:${candidate}`;
export const didKey = (arms: readonly string[]): string => `did:${arms.join(':')}`;

/**
 * @param pairs (baseline, candidate) arm pairs compared on passes and tokens
 * @param quads (a, b, c, d) arm tuples for the difference-in-differences
 * @returns undefined when the arms' cases differ, a token count is unknown, or cases are
 *   clustered (then each comparison keeps its own case set and bootstrap — over clusters).
 */
export function sharedBootstrap(table: Map<string, ArmCases>, pairs: ReadonlyArray<readonly [string, string]>, quads: ReadonlyArray<readonly [string, string, string, string]>, settings: BootstrapSettings): SharedEstimates | undefined {
  const arms = [...new Set([...pairs.flat(), ...quads.flat()])];
  const tables = arms.map((arm) => table.get(arm));
  const first = tables[0];
  if (!first || tables.some((cases) => cases === undefined || cases.size !== first.size)) return undefined;
  const ids = [...first.keys()].sort();
  for (const cases of tables) for (const id of ids) if (cases?.get(id)?.tokens === undefined) return undefined;
  if (clusterKeysOf(ids.map((id) => first.get(id)?.cluster))) return undefined;
  const columns: Record<string, Float64Array> = {};
  arms.forEach((arm, i) => {
    columns[`ok:${arm}`] = column(tables[i] as ArmCases, ids, (r) => r.pass);
    columns[`tok:${arm}`] = column(tables[i] as ArmCases, ids, (r) => r.tokens ?? 0);
  });
  const statistics: Record<string, SumStatistic<string>> = {};
  for (const [baseline, candidate] of pairs) {
    statistics[passKey(baseline, candidate)] = meanDifference({ candidate: `ok:${candidate}`, baseline: `ok:${baseline}` });
    statistics[tokensKey('tps', baseline, candidate)] = ratioOfRatios({ candidate: { numerator: `tok:${candidate}`, denominator: `ok:${candidate}` }, baseline: { numerator: `tok:${baseline}`, denominator: `ok:${baseline}` } });
    statistics[tokensKey('total', baseline, candidate)] = ratioOfSums({ numerator: `tok:${candidate}`, denominator: `tok:${baseline}` });
  }
  for (const [a, b, c, d] of quads) statistics[didKey([a, b, c, d])] = differenceInDifferences({ a: `ok:${a}`, b: `ok:${b}`, c: `ok:${c}`, d: `ok:${d}` });
  return new Map(Object.entries(pairedBootstrap({ columns, statistics, ...settings })));
}
