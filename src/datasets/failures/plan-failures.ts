/**
 * Production failures → new cases, pure (seed §6: failures flow back into val/test, with the
 * budget and n they failed at).
 *
 * - One case per task: events are grouped by `case_id`, else by normalized input.
 * - A task that failed at n=1 and passed at a larger n is sampling randomness, not a missing
 *   capability: tagged `sampling`, and it goes to train only (diagnosis material, never an
 *   eval case whose pass rate would measure luck).
 * - Every other failure is assigned by a stable hash of its normalized input: the first 32
 *   bits of sha256 as a uniform u, train when u < train share, val when u < train + val, else
 *   test. The same input always lands in the same split, whatever file or order it came in.
 * - A case whose normalized input (or id) is already in any split — train, val, test or
 *   regression — is dropped: the splits stay disjoint, and re-adding the same events adds
 *   nothing. Ids are `prod-` + 12 hex digits of the input's sha256.
 */
import type { EvalCase } from '../../core/case.js';
import { sha256 } from '../../core/hash.js';
import type { SplitShares } from '../../config/types.js';
import { normalizedInput } from '../splits.js';
import { isFailure, type FailureEvent } from './failure-events.js';

export type TargetSplit = 'train' | 'val' | 'test';

export interface FailureRow {
  id: string;
  input: string;
  expected?: unknown;
  category: string;
  tags: string[];
  metadata: {
    /** The failure this case records: the budget and n it failed at (its smallest failing n). */
    failure: { budget: number; n: number; tokens?: number; time?: string; variant?: string; case_id?: string };
    /** Failed events of this task. */
    failures: number;
    source: string;
  };
}

export interface FailurePlan {
  rows: Record<TargetSplit, FailureRow[]>;
  /** Rows tagged `sampling` (all in train). */
  sampling: number;
  /** Tasks already in some split (by normalized input or id). */
  duplicates: number;
  /** Failed tasks without an expected answer, for a scorer that needs one. */
  noExpected: number;
  /** Tasks whose events never failed. */
  neverFailed: number;
}

export interface PlanInput {
  events: readonly FailureEvent[];
  /** Every case of every split, regression included. */
  existing: readonly EvalCase[];
  shares: SplitShares;
  /** The scorer is a judge: rows need no expected answer. */
  judged: boolean;
  /** File name recorded in each row's metadata. */
  source: string;
}

export function splitOf(input: string, shares: SplitShares): TargetSplit {
  const u = Number.parseInt(sha256(`split:${input}`).slice(0, 8), 16) / 2 ** 32;
  if (u < shares.train) return 'train';
  if (u < shares.train + shares.val) return 'val';
  return 'test';
}

export function failureCaseId(normalized: string): string {
  return `prod-${sha256(normalized).slice(0, 12)}`;
}

export function planFailures(input: PlanInput): FailurePlan {
  const plan: FailurePlan = { rows: { train: [], val: [], test: [] }, sampling: 0, duplicates: 0, noExpected: 0, neverFailed: 0 };
  const known = new Set(input.existing.map((c) => normalizedInput(c)));
  const knownIds = new Set(input.existing.map((c) => c.id));
  const groups = new Map<string, FailureEvent[]>();
  for (const event of input.events) {
    const key = event.caseId === undefined ? `input:${normalize(event.input)}` : `case:${event.caseId}`;
    groups.set(key, [...(groups.get(key) ?? []), event]);
  }
  for (const events of groups.values()) {
    const failed = events.filter(isFailure).sort((a, b) => a.n - b.n || (a.time ?? 0) - (b.time ?? 0) || a.line - b.line);
    const first = failed[0];
    if (!first) {
      plan.neverFailed += 1;
      continue;
    }
    const text = normalize(first.input);
    const id = failureCaseId(text);
    if (known.has(text) || knownIds.has(id)) {
      plan.duplicates += 1;
      continue;
    }
    const expected = events.find((e) => e.expected !== undefined)?.expected;
    if (expected === undefined && !input.judged) {
      plan.noExpected += 1;
      continue;
    }
    known.add(text);
    knownIds.add(id);
    const sampling = first.n === 1 && events.some((e) => e.n > 1 && e.passed === true);
    const split = sampling ? 'train' : splitOf(text, input.shares);
    if (sampling) plan.sampling += 1;
    plan.rows[split].push({
      id,
      input: first.input,
      ...(expected === undefined ? {} : { expected }),
      category: events.find((e) => e.category !== undefined)?.category ?? 'production',
      tags: sampling ? ['production', 'sampling'] : ['production'],
      metadata: {
        failure: {
          budget: first.budget, n: first.n,
          ...(first.tokens === undefined ? {} : { tokens: first.tokens }),
          ...(first.time === undefined ? {} : { time: new Date(first.time).toISOString() }),
          ...(first.variant === undefined ? {} : { variant: first.variant }),
          ...(first.caseId === undefined ? {} : { case_id: first.caseId }),
        },
        failures: failed.length,
        source: input.source,
      },
    });
  }
  return plan;
}

/** The same normalization the split-overlap check uses (lowercase, whitespace collapsed). */
function normalize(text: string): string {
  return text.toLowerCase().replace(/\s+/g, ' ').trim();
}
