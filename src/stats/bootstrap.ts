import { type BootstrapEstimate, summarizeReplicates } from './bootstrap-intervals.js';
import { createRng } from './rng.js';
import { meanDifference, type SumStatistic } from './sum-statistics.js';

/**
 * Paired bootstrap over cases (Efron 1979, "Bootstrap methods: another look at the
 * jackknife"; intervals per Efron 1987, "Better bootstrap confidence intervals", JASA 82).
 *
 * Each round draws n case indices with replacement ONCE and every column — every arm, every
 * statistic — is summed over those same indices. That shared draw is what makes it paired:
 * a hard case drawn twice counts twice for baseline and candidate alike, so case difficulty
 * cancels in differences instead of inflating their variance.
 *
 * Speed: each column is copied into a Float64Array; a round draws its n indices once into
 * a reused Int32Array, then sums each column over them in a tight gather loop (measured
 * faster than row-major packing: the running sum stays in a register), and statistics are
 * evaluated from the K sums — no per-round allocation. 2,000 rounds × 10,000 cases × 6
 * statistics takes well under a second.
 */
export interface PairedBootstrapInput<C extends string, S extends string> {
  /** Per-case columns, all of the same length n ≥ 1, finite values (e.g. 0/1 pass, tokens). */
  columns: Readonly<Record<C, ArrayLike<number>>>;
  /** Named statistics of the column sums (see sum-statistics.ts for the usual ones). */
  statistics: Readonly<Record<S, SumStatistic<C>>>;
  /** Bootstrap rounds B (e.g. 2,000; the interval's Monte-Carlo error shrinks like 1/√B). */
  rounds: number;
  /** Seed of the xoshiro128** stream; the same seed and data give identical results. */
  seed: number;
  /** Two-sided confidence level, default 0.95. */
  confidence?: number;
}

/**
 * Runs the paired bootstrap and returns, per statistic, the point estimate, percentile and
 * BCa intervals, the bootstrap standard error and the rounds used.
 *
 * Undefined rounds — handled deliberately, per statistic:
 * - NaN (e.g. tokens_per_success = 0/0 on a resample without tokens or successes) has no
 *   order, so that round is dropped for that statistic and counted in `undefinedRounds`;
 *   `rounds` is what remained. The interval is then conditional on the statistic being
 *   defined: callers should treat a non-trivial `undefinedRounds / B` as "not estimable".
 * - ±Infinity (e.g. tokens spent with zero successes) is kept: it is an ordered, meaningful
 *   value (infinite cost per success), so an interval may end at Infinity and the standard
 *   error becomes Infinity. Dropping it would make the upper bound look falsely good.
 *
 * Ties with the estimate (which BCa's z₀ counts as half) are exact for integer-valued columns
 * — 0/1 passes, token counts — because their sums are exact in any order. For fractional
 * columns, sums in resample order can differ from the original by an ulp; ties then break
 * arbitrarily, which only matters for tie-heavy statistics.
 *
 * @throws RangeError on empty, ragged or non-finite columns, or invalid rounds/confidence.
 */
export function pairedBootstrap<C extends string, S extends string>(
  input: PairedBootstrapInput<C, S>,
): Record<S, BootstrapEstimate> {
  const confidence = input.confidence ?? 0.95;
  if (!(confidence > 0 && confidence < 1)) throw new RangeError(`confidence must be in (0, 1), got ${confidence}`);
  if (!Number.isSafeInteger(input.rounds) || input.rounds < 1) {
    throw new RangeError(`rounds must be a positive integer, got ${input.rounds}`);
  }
  const columnNames = Object.keys(input.columns) as C[];
  const statisticNames = Object.keys(input.statistics) as S[];
  const columns = copyColumns(input.columns, columnNames);
  const width = columns.length;
  const n = (columns[0] as Float64Array).length;
  const statistics = statisticNames.map((name) => input.statistics[name]);

  // One mutable sums object, reused for every evaluation (statistics must not retain it).
  const sums = Object.fromEntries(columnNames.map((name) => [name, 0])) as Record<C, number>;
  // Writes statistic s of these column sums to into[s·stride + at].
  const evaluate = (values: Float64Array, count: number, into: Float64Array, stride: number, at: number): void => {
    for (let k = 0; k < width; k++) sums[columnNames[k] as C] = values[k] as number;
    for (let s = 0; s < statistics.length; s++) {
      into[s * stride + at] = (statistics[s] as SumStatistic<C>)(sums, count);
    }
  };

  const totals = new Float64Array(width);
  columns.forEach((column, k) => {
    totals[k] = column.reduce((sum, value) => sum + value, 0);
  });
  const estimates = new Float64Array(statistics.length);
  evaluate(totals, n, estimates, 1, 0);

  // Replicates of all statistics in one buffer: statistic s occupies [s·B, (s+1)·B).
  const rounds = input.rounds;
  const replicates = new Float64Array(statistics.length * rounds);
  const rng = createRng(input.seed);
  const indices = new Int32Array(n);
  const roundSums = new Float64Array(width);
  for (let round = 0; round < rounds; round++) {
    // The same indices serve every column: this is the pairing.
    for (let draw = 0; draw < n; draw++) indices[draw] = rng.int(n);
    for (let k = 0; k < width; k++) {
      const column = columns[k] as Float64Array;
      let sum = 0;
      for (let draw = 0; draw < n; draw++) sum += column[indices[draw] as number] as number;
      roundSums[k] = sum;
    }
    evaluate(roundSums, n, replicates, rounds, round);
  }

  // Jackknife: leave-one-out sums are totals − case i, so each costs O(K), not O(n·K).
  const leaveOneOut = new Float64Array(statistics.length * n);
  const without = new Float64Array(width);
  if (n > 1) {
    for (let i = 0; i < n; i++) {
      for (let k = 0; k < width; k++) without[k] = (totals[k] as number) - ((columns[k] as Float64Array)[i] as number);
      evaluate(without, n - 1, leaveOneOut, n, i);
    }
  }

  const result = {} as Record<S, BootstrapEstimate>;
  statisticNames.forEach((name, s) => {
    const own = replicates.subarray(s * rounds, (s + 1) * rounds);
    const defined = own.filter((value) => !Number.isNaN(value)).sort();
    result[name] = summarizeReplicates({
      estimate: estimates[s] as number,
      sortedReplicates: defined,
      undefinedRounds: rounds - defined.length,
      leaveOneOut: n > 1 ? leaveOneOut.subarray(s * n, (s + 1) * n) : [],
      confidence,
    });
  });
  return result;
}

/** Validates the columns (same length n ≥ 1, finite values) and copies them to Float64Arrays. */
function copyColumns<C extends string>(
  columns: Readonly<Record<C, ArrayLike<number>>>,
  names: readonly C[],
): Float64Array[] {
  if (names.length === 0) throw new RangeError('pairedBootstrap: no columns');
  const n = columns[names[0] as C].length;
  if (n < 1) throw new RangeError('pairedBootstrap: no cases');
  return names.map((name) => {
    const source = columns[name];
    if (source.length !== n) throw new RangeError(`column ${name} has ${source.length} cases, expected ${n}`);
    const copy = Float64Array.from(source);
    const bad = copy.findIndex((value) => !Number.isFinite(value));
    if (bad >= 0) throw new RangeError(`column ${name}[${bad}] is not a finite number`);
    return copy;
  });
}

/** Options of {@link pairedDifference}. */
export interface PairedDifferenceOptions {
  rounds: number;
  seed: number;
  confidence?: number;
}

/**
 * Paired bootstrap of the mean difference mean(candidate) − mean(baseline) over the same
 * cases (e.g. the same-budget pass-rate delta). The candidate is the second argument.
 */
export function pairedDifference(
  baseline: ArrayLike<number>,
  candidate: ArrayLike<number>,
  options: PairedDifferenceOptions,
): BootstrapEstimate {
  const { delta } = pairedBootstrap({
    ...options,
    columns: { baseline, candidate },
    statistics: { delta: meanDifference({ candidate: 'candidate', baseline: 'baseline' }) },
  });
  return delta;
}
