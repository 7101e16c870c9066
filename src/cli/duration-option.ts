/** Durations on the command line: `500ms`, `10s`, `5m`, `1h`; a bare number is seconds. */
import { IsobudgetError } from '../core/errors.js';

const UNIT_MS: Readonly<Record<string, number>> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000 };

/** Milliseconds, or undefined when the flag was not given. */
export function durationOption(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const match = /^(\d+(?:\.\d+)?)(ms|s|m|h)?$/.exec(value.trim());
  const ms = match ? Number(match[1]) * (UNIT_MS[match[2] ?? 's'] ?? 1_000) : NaN;
  if (!Number.isFinite(ms) || ms < 1 || ms > 2_147_483_647) {
    throw new IsobudgetError('usage', `--${name} must be a duration like 500ms, 30s, 10m or 1h (a bare number is seconds), at least 1 ms and under 24 days, got '${value}'`);
  }
  return Math.round(ms);
}
