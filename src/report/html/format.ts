/** Number formats of the HTML report (plain strings; callers escape). */

export function pct(x: number | null | undefined, digits = 1): string {
  return x === null || x === undefined || !Number.isFinite(x) ? '—' : `${(x * 100).toFixed(digits)}%`;
}

/** A difference of rates in percentage points, signed. */
export function pts(x: number | null | undefined, digits = 1): string {
  if (x === null || x === undefined || !Number.isFinite(x)) return '—';
  const v = x * 100;
  return `${v >= 0 ? '+' : '−'}${Math.abs(v).toFixed(digits)} pts`;
}

/** An interval in points; "CI n/a" when undefined (too few cases), never NaN. */
export function ptsInterval(ci: readonly [number, number] | null | undefined): string {
  return ci && !Number.isNaN(ci[0]) && !Number.isNaN(ci[1]) ? `[${pts(ci[0])}, ${pts(ci[1])}]` : '[CI n/a]';
}

export function count(x: number | null | undefined): string {
  return x === null || x === undefined || !Number.isFinite(x) ? '—' : Math.round(x).toLocaleString('en-US');
}

export function ratio(x: number | null | undefined): string {
  return x === null || x === undefined || !Number.isFinite(x) ? '—' : `×${x.toFixed(2)}`;
}

export function ratioInterval(ci: readonly [number, number] | null | undefined): string {
  return ci && Number.isFinite(ci[0]) ? `[${ratio(ci[0])}, ${Number.isFinite(ci[1]) ? ratio(ci[1]) : '∞'}]` : '';
}
