/**
 * A review item as a compact card (seed §7: "let people answer a multiple-choice question,
 * not fill in a tiring form"): what changed as a diff, the same-budget delta with its CI,
 * tokens per success, attribution flags, and why a human is needed. Pure.
 */
import type { ReviewItem } from '../memory/store/records.js';

const f = (value: number | null | undefined, digits = 3): string => (value === null || value === undefined ? 'n/a' : value.toFixed(digits));
const signed = (value: number): string => `${value >= 0 ? '+' : ''}${value.toFixed(3)}`;

export function renderCard(item: ReviewItem, options: { maxDiffLines?: number } = {}): string {
  const { card } = item;
  const lines = [`${item.review_id}  [${item.kind}]  ${card.title}`, `  record ${item.memory_id} v${item.memory_version}${item.gate_id ? `, gate ${item.gate_id}` : ''}, queued ${item.created_at}${item.status === 'deferred' ? ' (deferred before)' : ''}`];
  for (const reason of item.reasons) lines.push(`  needs a human: ${reason}`);
  if (card.same_budget) {
    const { delta, ci95, cases, split } = card.same_budget;
    lines.push(`  same budget, n=1 (${split}, ${cases} cases): ${signed(delta)}  95% CI [${signed(ci95[0])}, ${signed(ci95[1])}]`);
  }
  if (card.tokens_per_success) {
    const { baseline, candidate, growth } = card.tokens_per_success;
    const change = growth === null ? '' : ` (${growth >= 1 ? '+' : '−'}${Math.abs((growth - 1) * 100).toFixed(0)}%)`;
    lines.push(`  tokens/success: ${baseline === null ? '?' : Math.round(baseline)} → ${candidate === null ? '?' : Math.round(candidate)}${change}${card.p95_latency_ratio === null ? '' : `   p95 latency ×${f(card.p95_latency_ratio, 2)}`}`);
  }
  if (card.bestofn) lines.push(`  Best-of-N n=${card.bestofn.n}: delta ${signed(card.bestofn.delta)}${card.bestofn.total_tokens_ratio === null ? '' : `, total tokens ×${f(card.bestofn.total_tokens_ratio, 2)}`}`);
  lines.push(`  attribution: ${card.attribution.length ? card.attribution.join('; ') : 'no flags'}`);
  for (const change of card.policy_changes) lines.push(`  budget policy: ${change}`);
  for (const fact of card.facts) lines.push(`  ${fact}`);
  if (card.diff) {
    const diffLines = card.diff.trimEnd().split('\n');
    const max = options.maxDiffLines ?? 60;
    lines.push('  what changed:');
    for (const line of diffLines.slice(0, max)) lines.push(`    ${line}`);
    if (diffLines.length > max) lines.push(`    … ${diffLines.length - max} more diff lines (isobudget memory show ${item.memory_id} --diff)`);
  }
  return `${lines.join('\n')}\n`;
}
