/** The top of the report: the verdict, its reason, the numbers it rests on, every check. Pure. */
import type { Manifest } from '../../ledger/manifest.js';
import type { VerdictName, VerdictRecord } from '../../verdict/record.js';
import { screeningNote } from '../next-step.js';
import { oracleNote } from '../oracle-note.js';
import { escapeHtml as h } from './escape.js';
import { count, pct, pts, ptsInterval, ratio, ratioInterval } from './format.js';

const TONE: Record<VerdictName, 'good' | 'bad' | 'warn' | 'neutral'> = {
  real_evolution: 'good',
  regression: 'bad',
  invalid: 'bad',
  budget_growth: 'warn',
  budget_leakage: 'warn',
  inconclusive: 'neutral',
  no_gain: 'neutral',
};

const ACTION: Record<VerdictName, string> = {
  // Said by actionLine with the split and the gate command: a run screens, `gate` promotes.
  real_evolution: 'Better at the same budget with Best-of-N off.',
  regression: 'Roll back: something the baseline could do got worse.',
  invalid: 'Fix the run: an invariant broke, no number below can be trusted.',
  budget_growth: 'Not promotable: the gain is bought with tokens or latency.',
  budget_leakage: 'Not promotable as a skill: it only wins with multi-path sampling.',
  inconclusive: 'Not yet decidable: run more cases.',
  no_gain: 'Not promotable: no gain at the same budget.',
};

export function verdictSection(record: VerdictRecord, manifest: Manifest | undefined): string {
  const tone = TONE[record.verdict];
  const sb = record.same_budget;
  const on = record.bestofn_on;
  const figures: string[] = [];
  if (sb) {
    figures.push(figure(sb.budget === null ? 'pass@1 (n=1, B unknown)' : 'same-budget pass@1 (n=1)', `${pct(sb.baseline_pass)} → ${pct(sb.candidate_pass)}`, `${pts(sb.delta)} ${ptsInterval(sb.ci95)}`, intervalTone(sb.ci95)));
    figures.push(figure('tokens per success', `${count(sb.baseline_tokens_per_success)} → ${count(sb.candidate_tokens_per_success)}`, `${ratio(sb.tokens_per_success_growth)} ${ratioInterval(sb.tokens_per_success_growth_ci95)} · gate ≤ ${ratio(record.gates.max_token_growth_ratio)}`, gateTone(sb.tokens_per_success_growth, record.gates.max_token_growth_ratio)));
    figures.push(figure('p95 latency', ratio(sb.p95_latency_ratio), `gate ≤ ${ratio(record.gates.max_latency_growth_ratio)}`, gateTone(sb.p95_latency_ratio, record.gates.max_latency_growth_ratio)));
    figures.push(figure('realized spend, n=1', ratio(sb.total_tokens_ratio), 'Σ candidate tokens / Σ baseline tokens', 'neutral'));
  }
  if (on) {
    figures.push(figure(`Best-of-${on.n}: selected@${on.n}`, `${pct(on.baseline_selected)} → ${pct(on.candidate_selected)}`, `${pts(on.delta)} ${ptsInterval(on.ci95)}`, intervalTone(on.ci95)));
    figures.push(figure(`pass@${on.n} (oracle) · DiD`, `${pct(on.baseline_pass_at_n)} → ${pct(on.candidate_pass_at_n)}`, `(D−C)−(B−A) ${pts(on.difference_in_differences)} ${on.did_ci95 ? ptsInterval(on.did_ci95) : ''} · n=${on.n} costs ${ratio(on.bestofn_ratio)} of n=1`, 'neutral'));
  }
  const checks = record.checks.map((c) => `<li class="check ${c.passed ? 'ok' : 'fail'}"><span class="mark" aria-hidden="true">${c.passed ? '✓' : '✗'}</span><code>${h(c.name)}</code> <span>${h(c.detail)}</span></li>`).join('');
  const notes = runNotes(record, manifest).map((n) => `<li>${h(n)}</li>`).join('');
  const power = record.power?.cases_for_80_power ? `<p class="power">About <b>${h(count(record.power.cases_for_80_power))}</b> cases would give 80% power at the observed effect (now ${h(count(record.power.cases_now))}).</p>` : '';
  return `<header class="verdict tone-${tone}">
  <div class="verdict-head">
    <div class="verdict-name" data-verdict="${h(record.verdict)}">${h(record.verdict.replace(/_/g, ' '))}</div>
    <div class="verdict-who"><b>${h(record.candidate_id)}</b> vs <b>${h(record.baseline_id)}</b><br><span class="muted">${h(record.experiment)} · split ${h(record.split)} · ${sb && sb.budget === null ? 'B unknown' : `B = ${h(count(sb?.budget ?? manifest?.config.budget.totalTokensPerCase))} tokens per case`} · run ${h(record.run_id)}</span></div>
  </div>
  <p class="action">${actionLine(record, manifest)}</p>
  <p class="reason">${h(record.reason)}</p>
  ${power}
</header>
<section class="figures">${figures.join('')}</section>
<section class="checks-and-notes">
  <div><h3>Checks, in the order the verdict applies them</h3><ul class="checks">${checks}</ul></div>
  ${notes ? `<div><h3>Read before trusting the numbers</h3><ul class="notes">${notes}</ul></div>` : ''}
</section>`;
}

/** The verdict's consequence; a pass says "passes screening on val — next: `isobudget gate …`", never "promotable". */
function actionLine(record: VerdictRecord, manifest: Manifest | undefined): string {
  const next = screeningNote(record, manifest?.config_path);
  if (next === undefined) return h(ACTION[record.verdict]);
  const head = `${next.head.charAt(0).toUpperCase()}${next.head.slice(1)}`;
  return `<b>${h(head)}<code>${h(next.command)}</code></b>${h(next.tail)}. ${h(ACTION.real_evolution)}`;
}

function figure(title: string, value: string, detail: string, tone: string): string {
  return `<div class="figure tone-${tone}"><div class="figure-title">${h(title)}</div><div class="figure-value">${h(value)}</div><div class="figure-detail">${h(detail)}</div></div>`;
}

function intervalTone(ci: readonly [number, number] | null): string {
  return ci === null ? 'neutral' : ci[0] > 0 ? 'good' : ci[1] < 0 ? 'bad' : 'neutral';
}

function sbBudgetUnknown(record: VerdictRecord): boolean {
  return record.same_budget !== null && record.same_budget.budget === null;
}

function gateTone(value: number | null, max: number): string {
  return value === null ? 'neutral' : value <= max ? 'good' : 'bad';
}

function runNotes(record: VerdictRecord, manifest: Manifest | undefined): string[] {
  const inv = record.invariants;
  const notes: string[] = [];
  if (inv.non_binding_arms.length) notes.push(`B is not binding for ${inv.non_binding_arms.join(', ')}: those arms are capped alike but not spend-aligned.`);
  if (inv.calls_missing_usage > 0) notes.push(`${inv.calls_missing_usage} calls reported no usage; ${inv.units_missing_tokens} (case, arm) totals are unknown and left out of token metrics (never counted as 0).`);
  if (inv.over_budget_units > 0) notes.push(`${inv.over_budget_units} (case, arm) units billed more than B.`);
  for (const e of inv.arm_errors ?? []) {
    if (e.errors > 0) notes.push(`${e.arm}: ${e.errors} of ${e.paths} paths ended in an error (${e.provider_errors} provider, ${e.scorer_errors} scorer, ${e.timeouts} timeout)${e.first_error ? `; first: ${e.first_error}` : ''}.`);
  }
  const oracle = oracleNote(record);
  if (oracle) notes.push(`${oracle[0]?.toUpperCase()}${oracle.slice(1)}.`);
  if (sbBudgetUnknown(record)) notes.push('B is unknown: the ledger states no budget, so over-B units were not checked and the arms are not known to share one B.');
  for (const warning of manifest?.warnings ?? []) if (!/not binding/.test(warning)) notes.push(warning);
  for (const event of manifest?.events ?? []) notes.push(`${event.ts}: ${event.message}`);
  if (manifest && manifest.status !== 'complete') notes.push(`The run is ${manifest.status}: the report shows what was committed.`);
  return notes;
}
