/** A Markdown summary fit for a CI job summary ($GITHUB_STEP_SUMMARY), pure. */
import type { VerdictRecord } from '../verdict/record.js';
import { renderSequentialMarkdown } from './sequential-text.js';

export function renderMarkdownSummary(record: VerdictRecord): string {
  const pct = (x: number): string => `${(x * 100).toFixed(1)}%`;
  const signed = (x: number): string => `${x >= 0 ? '+' : ''}${(x * 100).toFixed(1)} pts`;
  const num = (x: number | undefined): string => (x === undefined ? 'unknown' : Math.round(x).toLocaleString('en-US'));
  const icon = record.verdict === 'real_evolution' ? '✅' : record.verdict === 'regression' || record.verdict === 'invalid' ? '❌' : '⚠️';
  const lines = [
    `## ${icon} isobudget: \`${record.verdict}\` — ${record.candidate_id} vs ${record.baseline_id}`,
    '',
    record.reason,
    '',
    '| arm | n | pass@1 | pass@N | selected@N | tokens/case | tokens/success | p95 ms |',
    '|---|---:|---:|---:|---:|---:|---:|---:|',
    ...record.arms.map((a) => `| ${a.arm} | ${a.n} | ${pct(a.passAt1)} | ${a.n === 1 ? '—' : pct(a.passAtN)} | ${a.n === 1 ? '—' : pct(a.selectedAtN)} | ${num(a.meanTokensPerCase)} | ${num(a.tokensPerSuccess)} | ${num(a.latencyP95Ms)} |`),
    '',
  ];
  if (record.sequential) lines.push(renderSequentialMarkdown(record.sequential), '');
  const sb = record.same_budget;
  if (sb) lines.push(`Same budget (B=${sb.budget}), n=1: delta ${signed(sb.delta)}, ${Math.round(sb.confidence * 100)}% CI [${signed(sb.ci95[0])}, ${signed(sb.ci95[1])}], tokens/success ×${sb.tokens_per_success_growth?.toFixed(2) ?? '?'}, p95 latency ×${sb.p95_latency_ratio?.toFixed(2) ?? '?'}.`, '');
  for (const on of record.bestofn) lines.push(`Best-of-${on.n}: selected@${on.n} ${pct(on.baseline_selected)} → ${pct(on.candidate_selected)} (${signed(on.delta)}, CI [${signed(on.ci95[0])}, ${signed(on.ci95[1])}]); pass@${on.n} oracle ${pct(on.baseline_pass_at_n)} → ${pct(on.candidate_pass_at_n)}; DiD ${on.difference_in_differences === null ? 'n/a' : signed(on.difference_in_differences)}; n=${on.n} costs ×${on.bestofn_ratio?.toFixed(2) ?? '?'} of n=1.`, '');
  const worse = record.categories.filter((c) => c.worse);
  if (worse.length) lines.push(`Categories significantly worse: ${worse.map((c) => `${c.category} (${signed(c.delta)})`).join(', ')}.`, '');
  const rs = record.regression_set;
  if (rs) lines.push(`Regression set (${rs.cases} cases): ${pct(rs.baseline_pass)} → ${pct(rs.candidate_pass)}${rs.lost_cases.length ? `, lost: ${rs.lost_cases.slice(0, 10).map((id) => `\`${id}\``).join(', ')}${rs.lost_cases.length > 10 ? ', …' : ''}` : ''}.`, '');
  const failed = record.checks.filter((c) => !c.passed);
  if (failed.length) lines.push('Checks not passed:', '', ...failed.map((c) => `- \`${c.name}\`: ${c.detail}`), '');
  return `${lines.join('\n')}\n`;
}
