/**
 * Sample quantiles, Hyndman & Fan (1996) type 7 ("Sample quantiles in statistical
 * packages", The American Statistician 50(4)): the default of R's quantile() and numpy's
 * percentile(method='linear').
 *
 * Definition: sort the m values x₍₀₎ ≤ … ≤ x₍ₘ₋₁₎, let h = (m − 1)·p, j = ⌊h⌋; then
 * Q(p) = x₍ⱼ₎ + (h − j)·(x₍ⱼ₊₁₎ − x₍ⱼ₎). Q(0) is the minimum, Q(1) the maximum, and Q(0.5)
 * the usual median. Chosen so reported p50/p95 latencies match what users get from numpy/R.
 */

function checkProbability(probability: number): void {
  if (!(probability >= 0 && probability <= 1)) {
    throw new RangeError(`quantile probability must be in [0, 1], got ${probability}`);
  }
}

/**
 * Type-7 quantile of values already sorted ascending (not checked). Used by the bootstrap on
 * its sorted replicates. Infinite values are allowed: interpolating towards +∞ gives +∞,
 * towards −∞ gives −∞, and between −∞ and +∞ the result is NaN (undefined).
 *
 * @throws RangeError if `sorted` is empty or the probability is outside [0, 1].
 */
export function quantileOfSorted(sorted: ArrayLike<number>, probability: number): number {
  checkProbability(probability);
  const count = sorted.length;
  if (count === 0) throw new RangeError('quantileOfSorted: no values');
  const position = (count - 1) * probability;
  const index = Math.floor(position);
  const fraction = position - index;
  const low = sorted[index] as number;
  if (fraction === 0) return low;
  const high = sorted[index + 1] as number;
  if (low === high) return low;
  // Spell out the infinite cases: low + f·(high − low) gives ∞ − ∞ = NaN for −∞ and
  // finite high, where the limit is plainly −∞.
  const lowInfinite = low === Number.NEGATIVE_INFINITY;
  const highInfinite = high === Number.POSITIVE_INFINITY;
  if (lowInfinite && highInfinite) return Number.NaN;
  if (lowInfinite) return low;
  if (highInfinite) return high;
  return low + fraction * (high - low);
}

/** Defined values copied into a sorted Float64Array; NaN is rejected as a bug upstream. */
function sortDefined(values: ArrayLike<number | undefined>): Float64Array {
  const defined: number[] = [];
  for (let i = 0; i < values.length; i++) {
    const value = values[i];
    if (value === undefined) continue;
    if (Number.isNaN(value)) throw new RangeError(`quantile: value at index ${i} is NaN`);
    defined.push(value);
  }
  return Float64Array.from(defined).sort();
}

/**
 * Type-7 quantile of unsorted values, skipping `undefined` (unknown measurements, e.g. a
 * call without usage data). The input is not modified.
 *
 * @returns the quantile, or undefined when no value is defined — there is nothing to report,
 *   and undefined (unlike NaN) cannot leak silently into arithmetic under strict types.
 * @throws RangeError if a value is NaN or the probability is outside [0, 1].
 */
export function quantile(values: ArrayLike<number | undefined>, probability: number): number | undefined {
  checkProbability(probability);
  const sorted = sortDefined(values);
  return sorted.length === 0 ? undefined : quantileOfSorted(sorted, probability);
}

/**
 * Several type-7 quantiles with one sort (e.g. p50 and p95 of latency).
 *
 * @returns one quantile per probability, in order, or undefined when no value is defined.
 */
export function quantiles(
  values: ArrayLike<number | undefined>,
  probabilities: readonly number[],
): number[] | undefined {
  probabilities.forEach(checkProbability);
  const sorted = sortDefined(values);
  if (sorted.length === 0) return undefined;
  return probabilities.map((probability) => quantileOfSorted(sorted, probability));
}
