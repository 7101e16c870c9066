/**
 * Tool-call redundancy from agent trajectories: duplicate calls (same tool and arguments
 * within a path), failed retries, calls and tokens per success — candidate vs baseline at n=1.
 * Flagged when the candidate needs clearly more calls per success (> 1.25×) or adds
 * duplicates and retries on top of the baseline's.
 */
import type { ResultRecord } from '../../ledger/records.js';
import { finding, notApplicable, type Finding } from './finding.js';

export interface ToolUse {
  cases: number;
  successes: number;
  calls: number;
  duplicates: number;
  failed: number;
  retries: number;
  tokens: number;
  callsPerSuccess: number | null;
  duplicatesPerSuccess: number | null;
  retriesPerSuccess: number | null;
  tokensPerSuccess: number | null;
}

export function toolUse(results: readonly ResultRecord[]): ToolUse {
  let calls = 0;
  let duplicates = 0;
  let failed = 0;
  let retries = 0;
  let successes = 0;
  let tokens = 0;
  for (const r of results) {
    if (r.passed) successes += 1;
    tokens += r.total_tokens ?? 0;
    for (const path of r.paths) {
      const seen = new Set<string>();
      for (const step of path.trajectory ?? []) {
        calls += 1;
        const key = `${step.tool}\u0000${step.args_hash}`;
        if (seen.has(key)) duplicates += 1;
        seen.add(key);
        if (step.error !== undefined) failed += 1;
        if (step.retry) retries += 1;
      }
    }
  }
  const per = (value: number): number | null => (successes === 0 ? null : value / successes);
  return { cases: results.length, successes, calls, duplicates, failed, retries, tokens, callsPerSuccess: per(calls), duplicatesPerSuccess: per(duplicates), retriesPerSuccess: per(retries), tokensPerSuccess: per(tokens) };
}

export function toolRedundancy(results: readonly ResultRecord[]): Finding {
  const single = results.filter((r) => r.n === 1 && r.split !== 'regression');
  const baseline = toolUse(single.filter((r) => r.variant === 'baseline'));
  const candidate = toolUse(single.filter((r) => r.variant === 'candidate'));
  if (baseline.calls + candidate.calls === 0) return notApplicable('tool_redundancy', 'no tool calls in this run');
  const ratio = (a: number | null, b: number | null): number | null => (a === null || b === null || b === 0 ? null : a / b);
  const callRatio = ratio(candidate.callsPerSuccess, baseline.callsPerSuccess);
  const extraWaste = (candidate.duplicatesPerSuccess ?? 0) + (candidate.retriesPerSuccess ?? 0) - (baseline.duplicatesPerSuccess ?? 0) - (baseline.retriesPerSuccess ?? 0);
  const flagged = (callRatio !== null && callRatio > 1.25) || extraWaste > 0.1;
  const f = (v: number | null): string => (v === null ? '—' : v.toFixed(2));
  return finding(
    'tool_redundancy',
    flagged,
    `per success: calls ${f(baseline.callsPerSuccess)} → ${f(candidate.callsPerSuccess)}, duplicates ${f(baseline.duplicatesPerSuccess)} → ${f(candidate.duplicatesPerSuccess)}, retries ${f(baseline.retriesPerSuccess)} → ${f(candidate.retriesPerSuccess)}, tokens ${f(baseline.tokensPerSuccess)} → ${f(candidate.tokensPerSuccess)}`,
    {
      baseline_calls_per_success: baseline.callsPerSuccess,
      candidate_calls_per_success: candidate.callsPerSuccess,
      baseline_duplicates_per_success: baseline.duplicatesPerSuccess,
      candidate_duplicates_per_success: candidate.duplicatesPerSuccess,
      baseline_retries_per_success: baseline.retriesPerSuccess,
      candidate_retries_per_success: candidate.retriesPerSuccess,
      baseline_failed_calls: baseline.failed,
      candidate_failed_calls: candidate.failed,
      baseline_tokens_per_success: baseline.tokensPerSuccess,
      candidate_tokens_per_success: candidate.tokensPerSuccess,
      calls_per_success_ratio: callRatio,
    },
    'systemic',
  );
}
