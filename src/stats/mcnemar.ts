import { binomialCdf } from './binomial.js';

/**
 * Exact two-sided McNemar test (McNemar 1947, "Note on the sampling error of the difference
 * between correlated proportions or percentages", Psychometrika 12(2)) for paired pass/fail.
 *
 * Only discordant pairs carry information: b = cases the baseline passed and the candidate
 * failed, c = the reverse. Under H0 (equal pass rates) each discordant pair falls either way
 * with probability ½, so the exact test is the two-sided binomial test
 *
 *   p = min(1, 2·P(X ≤ min(b, c))),  X ~ Binomial(b + c, ½),
 *
 * which doubling makes exact because Binomial(·, ½) is symmetric. Preferred over the χ²
 * version, which is unreliable when b + c is small — exactly the regime of small evals.
 *
 * Stable for large counts (b + c up to 1e6 and beyond): the tail is summed in the direction
 * of decreasing terms, seeded by Loader's (2000) accurate log-pmf, so there is no factorial
 * overflow and no lgamma cancellation. Tiny p-values underflow to 0 only below ~1e-323.
 *
 * @param b discordant pairs one way (non-negative integer)
 * @param c discordant pairs the other way (non-negative integer)
 * @returns the exact two-sided p-value; 1 when b + c = 0 (no discordant pair, no evidence)
 * @throws RangeError on negative or non-integer counts.
 */
export function mcnemarExactP(b: number, c: number): number {
  for (const [name, value] of [['b', b], ['c', c]] as const) {
    if (!Number.isSafeInteger(value) || value < 0) {
      throw new RangeError(`mcnemarExactP: ${name} must be a non-negative integer, got ${value}`);
    }
  }
  const discordant = b + c;
  if (discordant === 0 || b === c) return 1;
  return Math.min(1, 2 * binomialCdf(Math.min(b, c), discordant, 0.5));
}
