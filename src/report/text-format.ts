/**
 * Number formats shared by the terminal and Markdown views of a verdict, pure. Anything
 * undefined — an interval from too few cases, an unknown ratio — prints as "n/a", never NaN.
 */

export function pct(x: number | null): string {
  return x !== null && Number.isFinite(x) ? `${(x * 100).toFixed(1)}%` : 'n/a';
}

/** A rate difference in points with its sign, without the unit: "+12.5". */
export function signedPoints(x: number): string {
  return Number.isFinite(x) ? `${x >= 0 ? '+' : ''}${(x * 100).toFixed(1)}` : 'n/a';
}

/** "[+1.0, +2.0]" (unit left to the caller), or "n/a" when the interval is undefined. */
export function pointsInterval(ci: readonly [number, number] | null | undefined): string {
  return ci && !Number.isNaN(ci[0]) && !Number.isNaN(ci[1]) ? `[${signedPoints(ci[0])}, ${signedPoints(ci[1])}]` : 'n/a';
}

export function ratio(x: number | null | undefined): string {
  return x === null || x === undefined || !Number.isFinite(x) ? 'n/a' : x.toFixed(2);
}

export function tokens(x: number | null | undefined): string {
  return x === null || x === undefined || !Number.isFinite(x) ? 'unknown' : Math.round(x).toLocaleString('en-US');
}

/** "B=3000" or "B unknown" (a seed-format ledger that states no budget). */
export function budgetLabel(budget: number | null | undefined): string {
  return budget === null || budget === undefined ? 'B unknown' : `B=${budget}`;
}
