/**
 * Paths that ended in an error rather than an answer, per arm, pure. An arm made of errors
 * shows 0% and few tokens — exactly what a "no gain" looks like — so the verdict must see
 * them (gates.max_error_rate) before it reads any pass rate.
 *
 * A path's error kind:
 * - `timeout`: the path failed (finish_reason `error`) and its error says it timed out;
 * - `provider`: the path failed otherwise — the model call after its retries, or the agent
 *   process (exit code, signal, missing output);
 * - `scorer`: the path answered but the scorer (judge included) could not score it.
 * A path cut off by B (`budget_exhausted`) is a failure of that path, not an error.
 */
import type { PathOutcome, ResultRecord } from '../ledger/records.js';

export type PathErrorKind = 'provider' | 'scorer' | 'timeout';

export interface ArmErrors {
  /** Paths recorded (0 for ledgers without per-path outcomes, e.g. the seed format). */
  paths: number;
  /** Paths that ended in an error of any kind. */
  errors: number;
  provider: number;
  scorer: number;
  timeout: number;
  /** The first error message in ledger order (as recorded: never a secret). */
  first: string | undefined;
}

const TIMED_OUT = /timed out|timeout/i;

export function pathErrorKind(path: PathOutcome): PathErrorKind | undefined {
  if (path.finish_reason === 'budget_exhausted') return undefined;
  if (path.finish_reason === 'error') return TIMED_OUT.test(path.error ?? '') ? 'timeout' : 'provider';
  return path.error === undefined ? undefined : 'scorer';
}

export function armErrors(records: readonly ResultRecord[]): ArmErrors {
  const counts: ArmErrors = { paths: 0, errors: 0, provider: 0, scorer: 0, timeout: 0, first: undefined };
  for (const record of records) {
    for (const path of record.paths) {
      counts.paths += 1;
      const kind = pathErrorKind(path);
      if (kind === undefined) continue;
      counts.errors += 1;
      counts[kind] += 1;
      counts.first ??= path.error ?? path.finish_reason;
    }
  }
  return counts;
}

/** errors / paths; 0 when no path was recorded. */
export function errorRate(errors: ArmErrors): number {
  return errors.paths === 0 ? 0 : errors.errors / errors.paths;
}
