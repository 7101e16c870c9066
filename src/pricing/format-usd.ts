/**
 * Money as the terminal, Markdown and the report show it, pure. Cents for a dollar or more;
 * below that four decimals, so a $0.0042 simulator run does not read as $0.00.
 */
export function formatUsd(value: number | null | undefined): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return 'unknown';
  const digits = Math.abs(value) >= 1 ? 2 : 4;
  return `$${value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits })}`;
}

/** A sum that leaves some units out (no price or no usage): marked as a lower bound. */
export function formatUsdSum(value: number | null | undefined, unitsMissing: number): string {
  const text = formatUsd(value);
  return unitsMissing > 0 && text !== 'unknown' ? `≥${text}` : text;
}
