/**
 * Canary failures with their budget and n (seed §6): per (budget, n) counts, and per case a
 * label. A case that failed only at n=1 and passed when sampled at a larger n (e.g. 8) is
 * labelled sampling randomness — not a capability problem; one that still fails at its
 * largest n is worth diagnosing next round; one never retried at a larger n is unresolved.
 */
import type { CanaryVariant } from './assign.js';
import type { CanaryEvent } from './events.js';

export type FailureLabel = 'sampling_randomness' | 'persistent' | 'unretried';

export interface CaseFailures {
  caseId: string;
  variant: CanaryVariant;
  /** Every failed event of the case, with the budget and n it ran under. */
  failures: Array<{ budget: number; n: number; time: number }>;
  /** The largest n the case was seen at. */
  maxN: number;
  label: FailureLabel;
}

export interface FailureSummary {
  /** Failed events by variant, budget and n, with the events at that (budget, n). */
  byBudgetAndN: Array<{ variant: CanaryVariant; budget: number; n: number; failures: number; events: number }>;
  /** Cases (events carrying case_id) that failed at least once. */
  cases: CaseFailures[];
  counts: Record<FailureLabel, number>;
  /** Failed events without a case_id (cannot be followed across n). */
  withoutCase: number;
}

export function summarizeFailures(events: readonly CanaryEvent[]): FailureSummary {
  const cells = new Map<string, { variant: CanaryVariant; budget: number; n: number; failures: number; events: number }>();
  const byCase = new Map<string, CanaryEvent[]>();
  let withoutCase = 0;
  for (const e of events) {
    if (e.passed === undefined) continue;
    const key = `${e.variant}\u0000${e.budget}\u0000${e.n}`;
    let cell = cells.get(key);
    if (!cell) cells.set(key, (cell = { variant: e.variant, budget: e.budget, n: e.n, failures: 0, events: 0 }));
    cell.events += 1;
    if (!e.passed) cell.failures += 1;
    if (e.caseId === undefined) {
      if (!e.passed) withoutCase += 1;
      continue;
    }
    const caseKey = `${e.variant}\u0000${e.caseId}`;
    const list = byCase.get(caseKey);
    if (list) list.push(e);
    else byCase.set(caseKey, [e]);
  }
  const cases: CaseFailures[] = [];
  for (const list of byCase.values()) {
    const failed = list.filter((e) => !e.passed);
    const first = list[0];
    if (failed.length === 0 || !first) continue;
    const maxN = Math.max(...list.map((e) => e.n));
    const failsAtMax = failed.some((e) => e.n === maxN);
    const passesAtMax = list.some((e) => e.n === maxN && e.passed);
    const label: FailureLabel = maxN > 1 && failsAtMax ? 'persistent' : maxN > 1 && passesAtMax ? 'sampling_randomness' : 'unretried';
    cases.push({ caseId: first.caseId ?? '', variant: first.variant, failures: failed.map((e) => ({ budget: e.budget, n: e.n, time: e.time })), maxN, label });
  }
  cases.sort((a, b) => (a.variant === b.variant ? 0 : a.variant === 'canary' ? -1 : 1) || b.failures.length - a.failures.length || (a.caseId < b.caseId ? -1 : 1));
  const counts: Record<FailureLabel, number> = { sampling_randomness: 0, persistent: 0, unretried: 0 };
  for (const c of cases) counts[c.label] += 1;
  const byBudgetAndN = [...cells.values()].filter((c) => c.failures > 0).sort((a, b) => (a.variant === b.variant ? 0 : a.variant === 'canary' ? -1 : 1) || a.budget - b.budget || a.n - b.n);
  return { byBudgetAndN, cases, counts, withoutCase };
}
