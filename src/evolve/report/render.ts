/**
 * The loop's HTML page (`evolve/<id>/report.html`), in the run report's style and with its
 * guarantees: one self-contained file, no network, every string escaped. It shows how the
 * loop ended, the lineage as a tree, n=1 pass on val per round with CIs, tokens per round,
 * how much sequential screening saved, and every proposal with its verdict, interval, stop,
 * reason and diff.
 */
import { renderPage } from '../../report/html/page.js';
import { escapeHtml as h } from '../../report/html/escape.js';
import { count, pct, pts, ratio } from '../../report/html/format.js';
import { renderChart } from '../../report/html/render-svg.js';
import { REPORT_CSS } from '../../report/html/styles.js';
import type { EvolveSummary } from '../summary.js';
import type { LineageEntry } from '../types.js';
import { tokensSpec, valPassSpec } from './charts.js';
import { lineageTreeSvg } from './lineage-tree.js';

export interface EvolveReportInput {
  summary: EvolveSummary;
  lineage: readonly LineageEntry[];
}

const EXTRA_CSS = `.diff { white-space: pre; font: 12px/1.4 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; background: white; border: 1px solid var(--line); border-radius: 6px; padding: 6px 8px; overflow: auto; max-height: 280px; }
.status-accepted { color: var(--good); font-weight: 700; } .status-rejected { color: var(--neutral); } .status-dropped { color: var(--muted); }
.lineage-table td { white-space: normal; } .lineage-table td.reason { text-align: left; min-width: 320px; }`;

export async function renderEvolveReport(input: EvolveReportInput): Promise<{ html: string; warnings: string[] }> {
  const { summary, lineage } = input;
  const [valChart, tokenChart] = await Promise.all([renderChart(valPassSpec(summary), 'val'), renderChart(tokensSpec(summary), 'tokens')]);
  const final = summary.final_skill;
  const tone = summary.proposals.accepted > 0 ? 'tone-good' : 'tone-neutral';
  const body = `
<h1>isobudget evolve · ${h(summary.experiment)} · ${h(summary.evolve_id)}</h1>
<section class="verdict ${tone}">
  <div class="verdict-head"><span class="verdict-name">${h(summary.status)}</span><span class="verdict-who">${summary.proposals.accepted} accepted of ${summary.proposals.total} proposals over ${summary.rounds_run} round${summary.rounds_run === 1 ? '' : 's'}</span></div>
  <p class="action">${h(summary.stop.message)}</p>
  <p class="reason">${final ? `Final incumbent: v${h(final.version)} — <code>${h(final.file)}</code>. Next: <code>${h(summary.gate_command ?? '')}</code> (test split and human review; the loop never runs the test split or promotes).` : 'No candidate was accepted: the starting skill stays the incumbent.'}</p>
</section>
<div class="figures">
  <div class="figure ${summary.proposals.accepted > 0 ? 'tone-good' : 'tone-neutral'}"><div class="figure-title">n=1 pass on val, start → final</div><div class="figure-value">${pct(summary.val.start?.pass)} → ${pct(summary.val.final?.pass)}</div><div class="figure-detail">${summary.final_vs_start ? `final vs start: ${h(summary.final_vs_start.verdict)}, ${pts(summary.final_vs_start.n1_delta)} (descriptive: val chose it)` : 'no change of incumbent'}</div></div>
  <div class="figure tone-neutral"><div class="figure-title">tokens spent</div><div class="figure-value">${count(summary.tokens.total)}</div><div class="figure-detail">diagnose ${count(summary.tokens.diagnose)} · propose ${count(summary.tokens.propose)} · screen ${count(summary.tokens.screen)}${summary.tokens.budget_tokens === null ? '' : ` · cap ${count(summary.tokens.budget_tokens)}`}${screeningDetail(summary)}</div></div>
  <div class="figure tone-neutral"><div class="figure-title">multiple testing</div><div class="figure-value">${h(Number((summary.correction.screen_confidence * 100).toFixed(2)))}% ${summary.screening.method === 'sequential' ? 'anytime-valid CS' : 'intervals'}</div><div class="figure-detail">Bonferroni over ${summary.correction.planned_screens} planned screens (α = ${h(Number(summary.correction.family_alpha.toFixed(4)))}); ${summary.proposals.screened} screened, ${summary.proposals.dropped} dropped</div></div>
</div>
<h2>Lineage</h2>
<figure class="chart wide"><figcaption><b>Proposals by round</b>Each node is a proposal, linked to the incumbent it edited; green: accepted, grey: screened and rejected, dashed: dropped by a check.</figcaption>${lineageTreeSvg(lineage, summary.start_skill.version)}</figure>
<div class="charts">
<figure class="chart"><figcaption><b>n=1 pass on val per round</b>The incumbent at the end of each round, with Wilson 95% intervals.</figcaption>${valChart.svg}</figure>
<figure class="chart"><figcaption><b>Tokens per round</b>From the loop's ledgers: the train diagnosis, the proposer calls and the screens.</figcaption>${tokenChart.svg}</figure>
</div>
<h2>Every proposal</h2>
<div class="table-wrap"><table class="lineage-table"><thead><tr><th>round</th><th>version</th><th>parent</th><th>status</th><th>verdict</th><th>n=1 delta</th><th>interval</th><th>stop</th><th>tokens/success</th><th>proposer tokens</th><th>screen tokens</th><th>summary and reason</th></tr></thead><tbody>
${lineage.map(row).join('\n')}
</tbody></table></div>
<div class="meta"><dl><dt>config</dt><dd>${h(summary.config_path)}</dd><dt>proposer</dt><dd>${h(summary.settings.proposer)}</dd><dt>ledgers</dt><dd>${summary.ledgers.map(h).join(', ')}</dd><dt>updated</dt><dd>${h(summary.updated_at)}</dd></dl></div>`;
  return { html: renderPage({ title: `isobudget evolve — ${summary.experiment}`, css: `${REPORT_CSS}\n${EXTRA_CSS}`, body }), warnings: [...valChart.warnings, ...tokenChart.warnings] };
}

/** What sequential screening saved: the screens' tokens against every screen on the whole split. */
function screeningDetail(summary: EvolveSummary): string {
  const screening = summary.screening;
  if (screening.method !== 'sequential') return '<br>fixed screens: every val case';
  const fraction = screening.tokens_fraction === null ? '' : ` (${pct(screening.tokens_fraction)})`;
  return `<br>sequential screens: ${count(screening.tokens_spent)} of ~${count(screening.tokens_full_split_estimate)} for every screen on the whole split${fraction}; ${screening.stopped_early} of ${screening.screens} stopped early`;
}

function row(entry: LineageEntry): string {
  const level = `${h(Number(((entry.confidence ?? 0) * 100).toFixed(2)))}%`;
  const interval = entry.ci95 ? `[${pts(entry.ci95[0])}, ${pts(entry.ci95[1])}] ${entry.screening === 'sequential' ? `anytime-valid CS at ${level}` : `at ${level}`}` : '—';
  return `<tr><td>${entry.round}</td><td>v${h(entry.version ?? '?')}</td><td>v${h(entry.parent)}</td><td class="status-${entry.status}">${h(entry.status)}</td><td>${h(entry.verdict ?? '—')}</td><td>${pts(entry.n1_delta)}</td><td>${interval}</td><td>${entry.stopped_at === null ? '—' : `${entry.stopped_at} cases, ${h(entry.stop_reason ?? '?')}`}</td><td>${ratio(entry.tokens_per_success_ratio)}</td><td>${count(entry.proposer_tokens)}</td><td>${count(entry.screen_tokens)}</td>`
    + `<td class="reason"><b>${h(entry.summary || '(no summary)')}</b><br>${h(entry.reason)}${entry.diff ? `<details><summary>diff</summary><div class="diff">${h(entry.diff)}</div></details>` : ''}</td></tr>`;
}
