/**
 * How a run's process collects garbage. A run keeps little alive (≈25–45 MB on the 1,000-case
 * bench) but allocates fast — SDK request objects, response bodies, ledger lines — and V8,
 * seeing a cheap collector, lets the old generation grow to up to 4× its live size between
 * major collections. On that bench that is ~210 MB peak RSS for ~30 MB of live data.
 * Growing by at most 30% between major GCs keeps the peak near 140 MB for about the same
 * throughput (bench/harness-throughput.mjs; figures in the README).
 *
 * It is a process-wide V8 setting, so only the CLI applies it — a library caller owns its
 * process. `ISOBUDGET_HEAP_GROWING_PERCENT` overrides it; 0 leaves V8's own policy.
 */
import { setFlagsFromString } from 'node:v8';
import { IsobudgetError } from '../core/errors.js';

export const DEFAULT_HEAP_GROWING_PERCENT = 30;
const ENV = 'ISOBUDGET_HEAP_GROWING_PERCENT';

/** The growing percent this process runs with (0 = V8's dynamic default). */
export function applyRunHeapPolicy(env: NodeJS.ProcessEnv): number {
  const raw = env[ENV];
  let percent = DEFAULT_HEAP_GROWING_PERCENT;
  if (raw !== undefined && raw.trim() !== '') {
    percent = Number(raw);
    if (!Number.isInteger(percent) || percent < 0 || percent > 1000) {
      throw new IsobudgetError('usage', `${ENV} must be an integer from 0 to 1000, got '${raw}'`, { hint: `unset it for the default (${DEFAULT_HEAP_GROWING_PERCENT}), or set 0 to keep V8's own heap growing` });
    }
  }
  // V8 reads the flag at every major GC, so setting it at run time takes effect; 0 is V8's
  // "no fixed factor", so setting 0 also restores its own policy.
  setFlagsFromString(`--heap-growing-percent=${percent}`);
  return percent;
}
