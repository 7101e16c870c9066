/** How a sequential screening run stopped, as terminal and Markdown text, pure (issue 14). */
import type { SequentialComparisonRecord, SequentialRecord } from '../verdict/sequential-record.js';

export function renderSequential(section: SequentialRecord): string {
  const level = (x: number): string => `${Math.round(x * 1000) / 10}%`;
  const comparison = (label: string, c: SequentialComparisonRecord): string =>
    `  ${label} delta ${pts(c.delta)}: anytime-valid ${level(section.method.confidence)} CS [${pts(c.cs[0])}, ${pts(c.cs[1])}]; ${level(section.method.gain_confidence)} gain bound ${pts(c.gain_bound)}, ${level(section.method.futility_confidence)} futility bound ${pts(c.futility_bound)}`;
  const lines = [
    `sequential screening: stopped after ${section.stopped_at} of ${section.planned_cases} cases (${section.stop_reason}); seeded order, a look every ${section.look_every} cases from ${section.min_cases}`,
    comparison('n=1', section.n1),
  ];
  if (section.bestofn) lines.push(comparison(`selected@${section.bestofn.n}`, section.bestofn));
  lines.push(`  ${tokensLine(section)}`);
  if (section.cases_started > section.stopped_at) lines.push(`  ${section.cases_started - section.stopped_at} cases in flight at the stop finished and are in the ledger, not in the verdict`);
  lines.push('  the bootstrap CIs below assume a fixed case count: they are not valid under optional stopping; the CS above is');
  return `${lines.join('\n')}\n`;
}

export function renderSequentialMarkdown(section: SequentialRecord): string {
  const n1 = section.n1;
  return `Sequential screening: stopped after ${section.stopped_at} of ${section.planned_cases} cases (\`${section.stop_reason}\`); n=1 delta ${pts(n1.delta)}, anytime-valid ${Math.round(section.method.confidence * 100)}% CS [${pts(n1.cs[0])}, ${pts(n1.cs[1])}] (${section.method.interval}). ${tokensLine(section)}. The bootstrap CIs are not valid under optional stopping.`;
}

/** Both figures: what was spent, and what the whole split would have cost. */
export function tokensLine(section: SequentialRecord): string {
  const fraction = section.tokens_fraction === null ? '' : ` — ${Math.round(section.tokens_fraction * 100)}%`;
  return `tokens: ${section.tokens_spent.toLocaleString('en-US')} spent; the whole split: ~${section.tokens_full_split_estimate.toLocaleString('en-US')} (estimated from the spend per case so far)${fraction}`;
}

function pts(value: number): string {
  return `${value >= 0 ? '+' : ''}${(value * 100).toFixed(1)} pts`;
}
