/**
 * Unbiased pass@k estimator of Chen et al. (2021), "Evaluating Large Language Models Trained
 * on Code", arXiv:2107.03374, §2.1: with n samples per case of which c pass,
 *
 *   pass@k = 1 − C(n − c, k) / C(n, k),
 *
 * the probability that a random size-k subset of the n samples contains a pass. Averaging it
 * over cases is unbiased for the true pass@k, unlike 1 − (1 − ĉ/n)^k.
 */

/**
 * Unbiased pass@k for one case: n samples drawn, c of them correct, budget of k attempts.
 *
 * Computed as 1 − ∏_{i=n−c+1}^{n} (1 − k/i), the paper's numerically stable product (the
 * binomials overflow a double beyond n ≈ 1000). We evaluate the product in log space,
 * −expm1(Σ log1p(−k/i)), so results near 0 keep full relative precision.
 *
 * @returns 1 when n − c < k (every k-subset must contain a pass), 0 when c = 0.
 * @throws RangeError unless n, c, k are integers with 0 ≤ c ≤ n and 1 ≤ k ≤ n.
 */
export function passAtK(n: number, c: number, k: number): number {
  for (const [name, value] of [['n', n], ['c', c], ['k', k]] as const) {
    if (!Number.isSafeInteger(value) || value < 0) {
      throw new RangeError(`passAtK: ${name} must be a non-negative integer, got ${value}`);
    }
  }
  if (k < 1) throw new RangeError(`passAtK: k must be at least 1, got ${k}`);
  if (k > n) throw new RangeError(`passAtK: k (${k}) must not exceed n (${n})`);
  if (c > n) throw new RangeError(`passAtK: c (${c}) must not exceed n (${n})`);
  if (n - c < k) return 1;
  if (c === 0) return 0; // also avoids returning −0 from −expm1(0)
  let logProduct = 0;
  for (let i = n - c + 1; i <= n; i++) logProduct += Math.log1p(-k / i);
  return -Math.expm1(logProduct);
}
