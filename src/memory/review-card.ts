/** The compact card a reviewer sees, built from a run's facts when an item is queued. Pure. */
import type { RunFacts } from './run-facts.js';
import type { ReviewCard } from './store/records.js';

export interface CardExtras {
  diff?: string;
  policyChanges?: string[];
  facts?: string[];
  tokensPerSuccess?: { baseline: number | null; candidate: number | null } | null;
  p95LatencyRatio?: number | null;
  totalTokensRatio?: number | null;
}

export function cardFromFacts(title: string, facts: RunFacts | null, extras: CardExtras = {}): ReviewCard {
  const growth = facts?.tokens_per_success_delta == null ? null : facts.tokens_per_success_delta + 1;
  return {
    title,
    diff: extras.diff ?? '',
    same_budget: facts && facts.same_budget_delta !== null && facts.ci95 ? { delta: facts.same_budget_delta, ci95: facts.ci95, cases: facts.cases ?? 0, split: facts.split } : null,
    tokens_per_success: facts ? { baseline: extras.tokensPerSuccess?.baseline ?? null, candidate: extras.tokensPerSuccess?.candidate ?? null, growth } : null,
    p95_latency_ratio: extras.p95LatencyRatio ?? null,
    bestofn: facts?.bestofn_n != null && facts.bestofn_delta !== null ? { n: facts.bestofn_n, delta: facts.bestofn_delta, total_tokens_ratio: extras.totalTokensRatio ?? null } : null,
    attribution: facts?.attribution ?? [],
    policy_changes: extras.policyChanges ?? [],
    facts: extras.facts ?? [],
  };
}
