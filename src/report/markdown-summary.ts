/** A Markdown summary fit for a CI job summary ($GITHUB_STEP_SUMMARY), pure. */
import { formatUsdSum } from '../pricing/format-usd.js';
import type { VerdictRecord } from '../verdict/record.js';
import { budgetLabel, pct, pointsInterval, ratio, signedPoints, tokens as num } from './text-format.js';
import { renderSequentialMarkdown } from './sequential-text.js';
import { oracleNote } from './oracle-note.js';
import { screeningNote, screeningText } from './next-step.js';

/** `configPath`: the experiment, for the `isobudget gate …` a passing run points to. */
export function renderMarkdownSummary(record: VerdictRecord, options: { configPath?: string | undefined } = {}): string {
  const signed = (x: number): string => `${signedPoints(x)} pts`;
  const interval = (ci: readonly [number, number] | null): string => (ci ? `CI ${pointsInterval(ci)} pts` : 'CI n/a');
  const icon = record.verdict === 'real_evolution' ? '✅' : record.verdict === 'regression' || record.verdict === 'invalid' ? '❌' : '⚠️';
  const errors = new Map((record.invariants.arm_errors ?? []).map((e) => [e.arm, e]));
  const errorCell = (arm: string): string => {
    const e = errors.get(arm);
    return e === undefined || e.paths === 0 ? '—' : `${e.errors}/${e.paths}`;
  };
  // Money beside the tokens, when some arm has a price.
  const priced = record.arms.some((a) => a.costUsd !== null && a.costUsd !== undefined);
  const cost = (a: VerdictRecord['arms'][number]): string => (priced ? ` ${formatUsdSum(a.costUsd, a.unitsMissingCost ?? 0)} | ${formatUsdSum(a.costPerSuccessUsd, a.unitsMissingCost ?? 0)} |` : '');
  const lines = [
    `## ${icon} isobudget: \`${record.verdict}\` — ${record.candidate_id} vs ${record.baseline_id}`,
    '',
    record.reason,
    '',
    ...nextStep(record, options.configPath),
    `| arm | n | pass@1 | pass@N | selected@N | tokens/case | tokens/success |${priced ? ' cost | cost/success |' : ''} p95 ms | errors |`,
    `|---|---:|---:|---:|---:|---:|---:|${priced ? '---:|---:|' : ''}---:|---:|`,
    ...record.arms.map((a) => `| ${a.arm} | ${a.n} | ${pct(a.passAt1)} | ${a.n === 1 ? '—' : pct(a.passAtN)} | ${a.n === 1 ? '—' : pct(a.selectedAtN)} | ${num(a.meanTokensPerCase)} | ${num(a.tokensPerSuccess)} |${cost(a)} ${num(a.latencyP95Ms)} | ${errorCell(a.arm)} |`),
    '',
  ];
  if (record.sequential) lines.push(renderSequentialMarkdown(record.sequential), '');
  const sb = record.same_budget;
  if (sb) lines.push(`${sb.budget === null ? 'B unknown (not a same-budget comparison)' : `Same budget (${budgetLabel(sb.budget)})`}, n=1: delta ${signed(sb.delta)}, ${sb.ci95 ? `${Math.round(sb.confidence * 100)}% ` : ''}${interval(sb.ci95)}, tokens/success ×${ratio(sb.tokens_per_success_growth)}, p95 latency ×${ratio(sb.p95_latency_ratio)}.`, '');
  const oracle = oracleNote(record);
  if (oracle) lines.push(`> ${oracle}`, '');
  for (const on of record.bestofn) lines.push(`Best-of-${on.n}: selected@${on.n} ${pct(on.baseline_selected)} → ${pct(on.candidate_selected)} (${signed(on.delta)}, ${interval(on.ci95)}); pass@${on.n} oracle ${pct(on.baseline_pass_at_n)} → ${pct(on.candidate_pass_at_n)}; DiD ${on.difference_in_differences === null ? 'n/a' : signed(on.difference_in_differences)}; n=${on.n} costs ×${ratio(on.bestofn_ratio)} of n=1.`, '');
  const worse = record.categories.filter((c) => c.worse);
  if (worse.length) lines.push(`Categories significantly worse: ${worse.map((c) => `${c.category} (${signed(c.delta)})`).join(', ')}.`, '');
  const rs = record.regression_set;
  if (rs) lines.push(`Regression set (${rs.cases} cases): ${pct(rs.baseline_pass)} → ${pct(rs.candidate_pass)}${rs.lost_cases.length ? `, lost: ${rs.lost_cases.slice(0, 10).map((id) => `\`${id}\``).join(', ')}${rs.lost_cases.length > 10 ? ', …' : ''}` : ''}.`, '');
  const failed = record.checks.filter((c) => !c.passed);
  if (failed.length) lines.push('Checks not passed:', '', ...failed.map((c) => `- \`${c.name}\`: ${c.detail}`), '');
  return `${lines.join('\n')}\n`;
}

function nextStep(record: VerdictRecord, configPath: string | undefined): string[] {
  const note = screeningNote(record, configPath);
  return note ? [`**${screeningText(note, (command) => `\`${command}\``, true)}**`, ''] : [];
}
