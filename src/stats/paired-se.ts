/**
 * Analytic standard errors for eval means and paired differences, following Miller (2024),
 * "Adding Error Bars to Evals: A Statistical Approach to Language Model Evaluations",
 * arXiv:2411.00640: the CLT standard error, the clustered standard error for questions that
 * share a context, and the standard error of paired differences between two models.
 *
 * These complement the bootstrap: they are instant, and the clustered form is what the
 * bootstrap over cases cannot give (it resamples cases as if independent).
 */

/** Cluster key of a case, e.g. the source document or task template it came from. */
export type ClusterKey = string | number;

function checkFinite(values: ArrayLike<number>, name: string): void {
  for (let i = 0; i < values.length; i++) {
    if (!Number.isFinite(values[i])) throw new RangeError(`${name}[${i}] is not a finite number`);
  }
}

function differences(baseline: ArrayLike<number>, candidate: ArrayLike<number>): Float64Array {
  if (baseline.length !== candidate.length) {
    throw new RangeError(`paired arrays differ in length: ${baseline.length} vs ${candidate.length}`);
  }
  checkFinite(baseline, 'baseline');
  checkFinite(candidate, 'candidate');
  const result = new Float64Array(baseline.length);
  for (let i = 0; i < result.length; i++) result[i] = (candidate[i] as number) - (baseline[i] as number);
  return result;
}

function mean(values: ArrayLike<number>): number {
  let sum = 0;
  for (let i = 0; i < values.length; i++) sum += values[i] as number;
  return sum / values.length;
}

/**
 * CLT standard error of a mean (Miller 2024): √(s²/n) with the unbiased sample
 * variance s² = Σ(xᵢ − x̄)²/(n − 1).
 *
 * @returns NaN when n < 2 (no variance estimate exists) — deliberately not a throw, so one
 *   tiny category does not abort an analysis; NaN makes every derived interval NaN, which the
 *   verdict treats as "not significant".
 * @throws RangeError if a value is not finite.
 */
export function meanStandardError(values: ArrayLike<number>): number {
  checkFinite(values, 'values');
  const n = values.length;
  if (n < 2) return Number.NaN;
  const center = mean(values);
  let squares = 0;
  for (let i = 0; i < n; i++) squares += ((values[i] as number) - center) ** 2;
  return Math.sqrt(squares / (n - 1) / n);
}

/**
 * Clustered standard error of a mean (Miller 2024, the clustered-SE equation):
 *
 *   SE² = SE²_CLT + (1/n²) Σ_c Σ_i Σ_{j≠i} (x_{i,c} − x̄)(x_{j,c} − x̄),
 *
 * i.e. the CLT variance plus the within-cluster cross products of residuals. We use the
 * identity Σ_i Σ_{j≠i} eᵢeⱼ = (Σ_i eᵢ)² − Σ_i eᵢ² per cluster, so it is O(n). No small-sample
 * (G/(G−1)) factor is applied, matching the paper; with few clusters it is optimistic.
 * With every case in its own cluster it equals {@link meanStandardError}.
 *
 * @returns NaN when n < 2.
 * @throws RangeError on length mismatch or non-finite values.
 */
export function clusteredStandardError(values: ArrayLike<number>, clusters: ArrayLike<ClusterKey>): number {
  if (clusters.length !== values.length) {
    throw new RangeError(`clusters has ${clusters.length} keys for ${values.length} values`);
  }
  const base = meanStandardError(values);
  const n = values.length;
  if (n < 2) return Number.NaN;
  const center = mean(values);
  const residualSums = new Map<ClusterKey, number>();
  let crossProducts = 0;
  for (let i = 0; i < n; i++) {
    const residual = (values[i] as number) - center;
    const key = clusters[i] as ClusterKey;
    residualSums.set(key, (residualSums.get(key) ?? 0) + residual);
    crossProducts -= residual * residual;
  }
  for (const sum of residualSums.values()) crossProducts += sum * sum;
  // Cannot go negative: the total equals Σ_c E_c²/n² + Σe²/(n²(n−1)) ≥ 0; clamp rounding only.
  return Math.sqrt(Math.max(0, base * base + crossProducts / (n * n)));
}

/**
 * Standard error of the paired mean difference mean(candidate − baseline) (Miller 2024,
 * paired differences):
 * the SE of the per-case differences, which subtracts the covariance between the two arms
 * on the same cases — why a paired design needs far fewer cases than two independent ones.
 * With `clusters`, the clustered form is applied to the differences.
 *
 * @returns NaN when n < 2.
 * @throws RangeError on length mismatch or non-finite values.
 */
export function pairedStandardError(
  baseline: ArrayLike<number>,
  candidate: ArrayLike<number>,
  clusters?: ArrayLike<ClusterKey>,
): number {
  const deltas = differences(baseline, candidate);
  return clusters === undefined ? meanStandardError(deltas) : clusteredStandardError(deltas, clusters);
}

/**
 * Sample standard deviation (n − 1) of per-case differences candidate − baseline — the
 * `sdDiff` input of the power functions.
 *
 * @returns NaN when n < 2.
 */
export function pairedDifferenceSd(baseline: ArrayLike<number>, candidate: ArrayLike<number>): number {
  const deltas = differences(baseline, candidate);
  return meanStandardError(deltas) * Math.sqrt(deltas.length);
}
