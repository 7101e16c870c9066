/**
 * Cross-check of a run's two ledgers, pure (issue 24 item 7): every result's `calls` and
 * `total_tokens` must be what its calls in calls.jsonl add up to, by the runner's own rule
 * (run-unit.ts: answered calls, judging only with budget.include_judge, unknown usage makes
 * the total unknown, an attempt of unknown outcome counts at its reservation), and calls.jsonl must hold as many calls as the manifest counted. A run
 * whose candidate calls were deleted, or whose totals were edited, fails here.
 */
import { OUTCOME_UNKNOWN } from './call-intents.js';
import type { CallRecord, ResultRecord } from './records.js';

const key = (r: Pick<CallRecord, 'split' | 'arm' | 'epoch' | 'case_id'>): string => `${r.split}\u0000${r.arm}\u0000${r.epoch}\u0000${r.case_id}`;

interface UnitCalls {
  count: number;
  /** Σ total_tokens of the calls that count toward B (tokens). */
  tokens: number;
  /** Of the calls that count toward B, those without usage. */
  missing: number;
}

export interface TotalsOptions {
  /** budget.include_judge of the run: judge and select calls count toward B. */
  includeJudge: boolean;
  /** manifest.calls.committed of a finished run; undefined: not checked. */
  committedCalls?: number | undefined;
}

/** The first mismatch as a sentence naming the unit; undefined when the ledgers agree. */
export function firstTotalsMismatch(results: readonly ResultRecord[], calls: readonly CallRecord[], options: TotalsOptions): string | undefined {
  const units = new Map<string, UnitCalls>();
  for (const call of calls) {
    const k = key(call);
    let unit = units.get(k);
    if (!unit) units.set(k, (unit = { count: 0, tokens: 0, missing: 0 }));
    unit.count += 1;
    const towardB = options.includeJudge || (call.role !== 'judge' && call.role !== 'select');
    // An attempt that may have been billed but never said is booked at its reservation (run-unit.ts).
    if (call.note === OUTCOME_UNKNOWN) {
      if (towardB) unit.tokens += call.reserved_tokens ?? call.booked_tokens ?? 0;
      continue;
    }
    const counted = call.error === undefined && towardB;
    if (!counted) continue;
    if (call.usage_missing || typeof call.total_tokens !== 'number') unit.missing += 1;
    else unit.tokens += call.total_tokens;
  }
  const seen = new Set<string>();
  for (const result of results) {
    const k = key(result);
    seen.add(k);
    const unit = units.get(k) ?? { count: 0, tokens: 0, missing: 0 };
    const name = `${result.arm} case ${JSON.stringify(result.case_id)}${result.epoch === 0 ? '' : ` epoch ${result.epoch}`}${result.split === 'regression' ? ' (regression set)' : ''}`;
    if (unit.count !== result.calls) return `${name}: results.jsonl says ${result.calls} call${result.calls === 1 ? '' : 's'}, calls.jsonl holds ${unit.count}`;
    if (result.total_tokens === undefined ? unit.missing === 0 : unit.missing > 0 || unit.tokens !== result.total_tokens) {
      const sum = unit.missing > 0 ? 'unknown (a call without usage)' : String(unit.tokens);
      return `${name}: results.jsonl says total_tokens ${result.total_tokens ?? 'unknown'}, its calls in calls.jsonl add up to ${sum}`;
    }
  }
  for (const [k, unit] of units) {
    if (!seen.has(k)) {
      const [split, arm, epoch, caseId] = k.split('\u0000');
      return `calls.jsonl holds ${unit.count} call${unit.count === 1 ? '' : 's'} of ${arm} case ${JSON.stringify(caseId)}${epoch === '0' ? '' : ` epoch ${epoch}`}${split === 'regression' ? ' (regression set)' : ''} that results.jsonl has no result for`;
    }
  }
  // Last: a unit-level mismatch names the unit, which says more than the count.
  if (options.committedCalls !== undefined && calls.length !== options.committedCalls) {
    return `calls.jsonl holds ${calls.length} calls, the manifest counted ${options.committedCalls}`;
  }
  return undefined;
}
