/**
 * Statistics written as functions of column sums — the shape the paired bootstrap needs.
 *
 * Each resample is summarised by Σ of every per-case column over the resampled cases; a
 * statistic maps those sums (and the case count n) to a number. Means, differences of means,
 * ratios of sums and the difference-in-differences are all of this form, so one pass over
 * the resampled indices serves every statistic, and the jackknife needs only
 * "total − row i" per case.
 *
 * Exactness: for integer columns (0/1 pass flags, token counts) every sum is an exact
 * integer in a double (below 2^53), and each factory below combines sums with integer
 * arithmetic before its single division. A resample with the same counts as the original
 * therefore yields a bit-identical value, so bootstrap ties with the point estimate are
 * real ties — which BCa's bias correction counts.
 */

/** Sums of each named column over the cases of one (re)sample. */
export type ColumnSums<C extends string> = Readonly<Record<C, number>>;

/**
 * A statistic computed from column sums over n cases. Must be pure and must not keep a
 * reference to `sums`: the bootstrap reuses one object across rounds for speed.
 * May return NaN (undefined, e.g. 0/0) or ±Infinity (e.g. x/0); see `pairedBootstrap`.
 */
export type SumStatistic<C extends string> = (sums: ColumnSums<C>, n: number) => number;

/** Mean of one column: Σx / n (e.g. a pass rate from a 0/1 column). */
export function meanOf<C extends string>(column: C): SumStatistic<C> {
  return (sums, n) => sums[column] / n;
}

/** Difference of means candidate − baseline over the same cases: (Σc − Σb) / n. */
export function meanDifference<C extends string>(columns: { candidate: C; baseline: C }): SumStatistic<C> {
  const { candidate, baseline } = columns;
  return (sums, n) => (sums[candidate] - sums[baseline]) / n;
}

/**
 * Ratio of sums Σnumerator / Σdenominator, e.g. tokens_per_success = Σ tokens / Σ successes
 * with every case's tokens in the numerator, failed ones included (they were spent).
 * Σdenominator = 0 gives +Infinity (tokens spent, nothing solved) or NaN (0/0).
 */
export function ratioOfSums<C extends string>(columns: { numerator: C; denominator: C }): SumStatistic<C> {
  const { numerator, denominator } = columns;
  return (sums) => sums[numerator] / sums[denominator];
}

/**
 * Ratio of two ratios of sums, candidate over baseline — e.g. the tokens_per_success ratio
 * (Σtok_B/Σsucc_B) / (Σtok_A/Σsucc_A), computed as (Σtok_B·Σsucc_A) / (Σsucc_B·Σtok_A) so
 * integer inputs are multiplied exactly (products stay below 2^53 for realistic totals).
 * Limits: no candidate success → +Infinity; no baseline success → 0; neither → NaN.
 */
export function ratioOfRatios<C extends string>(columns: {
  candidate: { numerator: C; denominator: C };
  baseline: { numerator: C; denominator: C };
}): SumStatistic<C> {
  const { candidate, baseline } = columns;
  return (sums) =>
    (sums[candidate.numerator] * sums[baseline.denominator]) /
    (sums[candidate.denominator] * sums[baseline.numerator]);
}

/**
 * Difference-in-differences (d − c) − (b − a), all means over the same cases. With the arms
 * of isobudget — a: baseline n=1, b: candidate n=1, c: baseline n=N, d: candidate n=N — it is
 * how much more (or less) the candidate gains from Best-of-N than from a single sample.
 * Computed as ((Σd − Σc) − (Σb − Σa)) / n: integer until the last step.
 */
export function differenceInDifferences<C extends string>(columns: { a: C; b: C; c: C; d: C }): SumStatistic<C> {
  const { a, b, c, d } = columns;
  return (sums, n) => (sums[d] - sums[c] - (sums[b] - sums[a])) / n;
}
