/** The verdict block printed in a terminal, pure text. */
import type { VerdictRecord } from '../verdict/record.js';
import { renderAttribution } from './attribution-text.js';
import { oracleNote } from './oracle-note.js';
import { screeningNote, screeningText } from './next-step.js';
import { pct, pointsInterval, ratio, signedPoints as signed, tokens as num } from './text-format.js';

/** How the terminal names each interval method (verdict.json carries the method's id). */
const CI_LABEL: Record<string, string> = { 'tango-score': 'Tango score', 'tango-score-clustered': 'Tango score, clustered', 'bca-bootstrap': 'BCa', 'cluster-bootstrap': 'cluster bootstrap' };

/** `configPath`: the experiment, for the `isobudget gate …` a passing run points to. */
export function renderVerdict(record: VerdictRecord, options: { configPath?: string | undefined } = {}): string {
  const lines: string[] = [];
  const sb = record.same_budget;
  if (sb) {
    // Without a known B the arms are not known to share one: no same-budget claim.
    const scope = sb.budget === null ? 'n=1, B unknown — not a same-budget comparison' : 'same budget, n=1';
    lines.push(`${scope} (${record.baseline_id} → ${record.candidate_id}, ${sb.cases} case${sb.cases === 1 ? '' : 's'}):`);
    const ci = sb.ci95 ? `${Math.round(sb.confidence * 100)}% CI ${pointsInterval(sb.ci95)} (${CI_LABEL[sb.ci_method] ?? sb.ci_method}` : `CI n/a (too few cases`;
    lines.push(`  pass@1 ${pct(sb.baseline_pass)} → ${pct(sb.candidate_pass)}   delta ${signed(sb.delta)} pts, ${ci}; McNemar p=${sb.mcnemar_p === null ? 'n/a' : sb.mcnemar_p.toPrecision(3)})`);
    lines.push(`  tokens/success ${num(sb.baseline_tokens_per_success)} → ${num(sb.candidate_tokens_per_success)} (×${ratio(sb.tokens_per_success_growth)})   total_tokens_ratio ×${ratio(sb.total_tokens_ratio)}   p95 latency ×${ratio(sb.p95_latency_ratio)}`);
  }
  for (const on of record.bestofn) {
    lines.push(`best-of-${on.n}: selected@${on.n} ${pct(on.baseline_selected)} → ${pct(on.candidate_selected)} (delta ${signed(on.delta)} pts, CI ${pointsInterval(on.ci95)}); pass@${on.n} ${pct(on.baseline_pass_at_n)} → ${pct(on.candidate_pass_at_n)}; DiD ${on.difference_in_differences === null ? 'n/a' : signed(on.difference_in_differences)}; total_tokens_ratio ×${ratio(on.total_tokens_ratio)}; n=${on.n} costs ×${ratio(on.bestofn_ratio)} of n=1`);
  }
  const oracle = oracleNote(record);
  if (oracle) lines.push(`note: ${oracle}`);
  const worse = record.categories.filter((c) => c.worse);
  if (worse.length) lines.push(`categories significantly worse: ${worse.map((c) => `${c.category} (${signed(c.delta)} pts)`).join(', ')}`);
  if (record.regression_set) lines.push(`regression set: ${pct(record.regression_set.baseline_pass)} → ${pct(record.regression_set.candidate_pass)}${record.regression_set.lost_cases.length ? `, lost: ${record.regression_set.lost_cases.slice(0, 8).join(', ')}${record.regression_set.lost_cases.length > 8 ? ', …' : ''}` : ''}`);
  const inv = record.invariants;
  const erring = (inv.arm_errors ?? []).filter((e) => e.errors > 0);
  if (erring.length) lines.push(`errors: ${erring.map((e) => `${e.arm} ${e.errors} of ${e.paths} paths (${e.provider_errors} provider, ${e.scorer_errors} scorer, ${e.timeouts} timeout)`).join('; ')}${erring[0]?.first_error ? `; first: ${erring[0].first_error}` : ''}`);
  if (inv.calls_missing_usage > 0) lines.push(`warning: ${inv.calls_missing_usage} calls reported no usage; ${inv.units_missing_tokens} (case, arm) totals are unknown and left out of token metrics`);
  if ((inv.calls_outcome_unknown ?? 0) > 0) lines.push(`note: ${inv.calls_outcome_unknown} attempts may have been billed without an answer (timeout, 5xx, reset); their ${(inv.outcome_unknown_tokens ?? 0).toLocaleString('en-US')} reserved tokens are counted as spent`);
  if (inv.non_binding_arms.length) lines.push(`note: B is not binding for ${inv.non_binding_arms.join(', ')} — capped alike, not spend-aligned`);
  if (record.attribution) {
    const text = renderAttribution(record.attribution);
    if (text) lines.push(text.trimEnd());
  }
  lines.push('', `verdict: ${record.verdict.toUpperCase()}`, `  ${record.reason}`);
  const next = screeningNote(record, options.configPath);
  if (next) lines.push(`  ${screeningText(next)}`);
  return `${lines.join('\n')}\n`;
}
