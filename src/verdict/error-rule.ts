/**
 * The error rule (part of `invalid`), pure: when more than `gates.max_error_rate` of any
 * arm's paths ended in a provider error, a scorer error or a timeout, the arm measured its
 * failures, not the variant — 0% from HTTP 500s reads exactly like "no gain".
 */
import type { ArmMetrics } from '../analysis/arm-metrics.js';
import { errorRate } from '../analysis/path-errors.js';
import { DEFAULTS } from '../config/defaults.js';
import type { GatesConfig } from '../config/types.js';
import { quoteText } from '../core/quote-text.js';

/** Characters of the first error message quoted in the check. */
const QUOTED_CHARS = 200;

export function maxErrorRate(gates: GatesConfig): number {
  return gates.maxErrorRate ?? DEFAULTS.maxErrorRate;
}

export function errorRateCheck(arms: readonly ArmMetrics[], max: number): { passed: boolean; detail: string } {
  const over = arms.filter((a) => errorRate(a.errors) > max);
  const limit = `max ${percent(max)} of an arm's paths`;
  if (over.length === 0) {
    const recorded = arms.filter((a) => a.errors.paths > 0);
    if (recorded.length === 0) return { passed: true, detail: 'no per-path outcomes recorded (seed-format ledger): errors not checked' };
    const worst = recorded.reduce((a, b) => (errorRate(b.errors) > errorRate(a.errors) ? b : a));
    return { passed: true, detail: `at most ${percent(errorRate(worst.errors))} of an arm's paths ended in an error (${worst.arm}: ${worst.errors.errors} of ${worst.errors.paths}); ${limit}` };
  }
  const counts = arms.filter((a) => a.errors.paths > 0).map((a) => {
    const e = a.errors;
    return `${a.arm} ${e.errors} of ${e.paths} paths (${percent(errorRate(e))}: ${e.provider} provider, ${e.scorer} scorer, ${e.timeout} timeout)`;
  });
  const first = over.find((a) => a.errors.first !== undefined);
  const message = first ? `; first error (${first.arm}): ${quoteText(first.errors.first ?? '', QUOTED_CHARS)}` : '';
  return { passed: false, detail: `${over.map((a) => a.arm).join(', ')} above the error rate (${limit}) — ${counts.join('; ')}${message}` };
}

function percent(rate: number): string {
  return `${(Math.round(rate * 1000) / 10).toString()}%`;
}
