/**
 * The run report: one self-contained HTML file (no network, no CDN, printable). Pure apart
 * from time spent: data in, string out. Charts are Vega-Lite specs rendered to SVG here.
 */
import type { Manifest } from '../../ledger/manifest.js';
import type { ResultRecord } from '../../ledger/records.js';
import type { VerdictRecord } from '../../verdict/record.js';
import { armCaption } from './arm-labels.js';
import { armTableSection } from './arm-table-section.js';
import { attributionSection } from './attribution-section.js';
import { CASE_BROWSER_SCRIPT } from './case-browser-script.js';
import { caseBrowserSection } from './case-browser-section.js';
import { caseBrowserData, type CaseText } from './case-data.js';
import { packCases, type PackOptions } from './pack-case-data.js';
import { escapeHtml as h } from './escape.js';
import { forestRows, forestSpec } from './forest-chart.js';
import { isoBudgetData } from './iso-budget-data.js';
import { isoBudgetSpec } from './iso-budget-chart.js';
import { renderPage } from './page.js';
import { regressionSection } from './regression-section.js';
import { renderChart } from './render-svg.js';
import { REPORT_CSS } from './styles.js';
import { budgetShown, tokenSpec } from './token-chart.js';
import { count } from './format.js';
import { sequentialSection } from './sequential-section.js';
import { verdictSection } from './verdict-section.js';

export interface ReportInput {
  verdict: VerdictRecord;
  manifest: Manifest | undefined;
  results: readonly ResultRecord[];
  /** Inputs and expected answers by case id (empty when the datasets are not available). */
  texts: ReadonlyMap<string, CaseText>;
  /** Said at the foot of the report, e.g. why inputs are missing. */
  notes: readonly string[];
  generatedAt: Date;
  caseData?: PackOptions;
}

export interface RenderedReport {
  html: string;
  /** Chart warnings from vega (empty unless a spec is wrong). */
  warnings: string[];
}

export async function renderReport(input: ReportInput): Promise<RenderedReport> {
  const { body, warnings } = await renderReportBody(input, { caseBrowser: true });
  const { verdict } = input;
  const html = renderPage({ title: `isobudget: ${verdict.verdict} — ${verdict.candidate_id} vs ${verdict.baseline_id}`, css: REPORT_CSS, body, script: CASE_BROWSER_SCRIPT });
  return { html, warnings };
}

/**
 * The report's content without the page around it. `caseBrowser: false` leaves out the
 * in-page case browser (the viewer pages cases on its server instead).
 */
export async function renderReportBody(input: ReportInput, options: { caseBrowser: boolean }): Promise<{ body: string; warnings: string[] }> {
  const { verdict, manifest, results } = input;
  const confidence = verdict.gates.confidence;
  // B unknown (an import, a seed ledger): null in the record, never a fallback B; `?? undefined` for manifests that store null.
  const budget = verdict.same_budget ? (verdict.same_budget.budget ?? undefined) : (manifest?.config.budget.totalTokensPerCase ?? undefined);
  const evaluated = results.filter((r) => r.split !== 'regression');
  const allN = verdict.arms.map((a) => a.n);
  const captions = new Map(verdict.arms.map((a) => [a.arm, armCaption(a, allN)]));
  const order = verdict.arms.map((a) => captions.get(a.arm) ?? a.arm);
  const samples = evaluated.flatMap((r) => (r.total_tokens === undefined ? [] : [{ arm: captions.get(r.arm) ?? r.arm, variant: r.variant, tokens: r.total_tokens }]));
  const forest = forestRows(verdict);
  const iso = isoBudgetData(verdict.arms, results, confidence);
  const charts = await Promise.all([
    iso.points.length ? renderChart(isoBudgetSpec(iso, budget, confidence), 'iso') : undefined,
    forest.length ? renderChart(forestSpec(forest, verdict.gates.min_same_budget_gain, verdict.categories[0]?.confidence), 'forest') : undefined,
    samples.length ? renderChart(tokenSpec(samples, order, budget), 'tokens') : undefined,
  ]);
  const [isoChart, forestChart, tokens] = charts;
  const chart = (rendered: { svg: string } | undefined, cls: string, title: string, caption: string, empty: string): string =>
    `<figure class="chart ${cls}"><figcaption><b>${h(title)}</b> ${h(caption)}</figcaption>${rendered ? rendered.svg : `<p class="muted">${h(empty)}</p>`}</figure>`;
  const level = `${Math.round(confidence * 100)}%`;
  const categories = verdict.categories.length;
  const categoryLevel = verdict.categories[0] ? `${(verdict.categories[0].confidence * 100).toFixed(1)}% (Bonferroni over ${categories} categories)` : level;
  // Without the in-page browser only the regression section reads the case data: no outputs, no packing.
  const outputField = manifest?.config.scorer.outputField;
  const { data: cases, payload } = options.caseBrowser ? packCases(results, input.texts, { ...input.caseData, outputField }) : { data: caseBrowserData(results, input.texts, { outputBudget: 0, maxOutput: 0, outputField }), payload: '' };
  const body = [
    `<h1>isobudget report</h1>`,
    verdictSection(verdict, manifest),
    sequentialSection(verdict.sequential),
    `<section><h2>Pass rate against spend</h2><div class="charts">`,
    chart(isoChart, '', 'Did the candidate move up, or only right?', `Each arm's pass rate against its mean billed tokens per case: up is better, right costs more. Dashed grey: baseline → candidate at the same n. Green staircase: the Pareto frontier of what could ship (pass@1, selected@N). Hollow: the pass@N oracle, an upper bound. Bars: ${level} Wilson intervals on rates, normal intervals on mean tokens.${budget === undefined ? '' : ` Every arm is capped at B = ${count(budget)} tokens per case: the red rule, or the note at the top right when B is far beyond the data.`} The token axis is zoomed to the data; it starts at 0 only when the data comes near it.`, 'No arm has known token usage.'),
    chart(forestChart, '', 'Per-category deltas at the same budget', `Candidate − baseline pass@1 at n=1; rows: category · cases · baseline→candidate. Category bars are ${categoryLevel} intervals: a bar entirely left of 0 is a category the verdict counts as significantly worse. Dotted green: the minimum gain.`, 'No same-budget comparison.'),
    chart(tokens, 'wide', 'Tokens per case, by arm', `Billed prompt + completion tokens of every call of a case in one arm; black rule: the mean.${budget === undefined ? '' : budgetShown(samples, budget) ? ' Red dashed: B.' : ` B = ${count(budget)} is off this scale: no case got to half of it.`}`, 'No token usage was recorded.'),
    `</div></section>`,
    armTableSection(verdict.arms, manifest, confidence),
    attributionSection(verdict.attribution),
    regressionSection(verdict, cases),
    options.caseBrowser ? caseBrowserSection(cases, payload) : '',
    footer(input),
  ].join('\n');
  return { body, warnings: charts.flatMap((c) => c?.warnings ?? []) };
}

function footer(input: ReportInput): string {
  const { verdict, manifest } = input;
  const rows: Array<[string, string]> = [
    ['run', verdict.run_id],
    ['experiment', verdict.experiment],
    ['verdict decided', verdict.created_at],
    ['report written', input.generatedAt.toISOString()],
    ['method', `paired by ${verdict.method.pairing}; pass/fail deltas: ${verdict.method.pass_fail ?? 'bootstrap'}; other quantities: ${verdict.method.interval.toUpperCase()} bootstrap intervals (${verdict.method.also} beside), ${verdict.method.rounds} rounds, seed ${verdict.method.seed}, ${verdict.method.prng}; categories ${verdict.method.category_adjustment}; pass@k ${verdict.method.pass_at_k}`],
    ['gates', `min same-budget gain ${verdict.gates.min_same_budget_gain}, max tokens/success growth ×${verdict.gates.max_token_growth_ratio}, max p95 latency growth ×${verdict.gates.max_latency_growth_ratio}, confidence ${verdict.gates.confidence}`],
  ];
  if (manifest) {
    rows.push(['config', `${manifest.config_path} (sha256 ${manifest.config_hash.slice(0, 16)}…)`]);
    for (const [name, d] of Object.entries(manifest.datasets)) rows.push([`dataset ${name}`, `${d.path} · ${d.cases} cases · sha256 ${d.sha256.slice(0, 16)}…`]);
    rows.push(['scorer / selector', `${manifest.scorer.name} ${manifest.scorer.version} / ${manifest.selector}`]);
    rows.push(['tool', `${manifest.tool.name} ${manifest.tool.version}, node ${manifest.node}`]);
  }
  for (const note of input.notes) rows.push(['note', note]);
  return `<footer class="meta"><dl>${rows.map(([k, v]) => `<dt>${h(k)}</dt><dd>${h(v)}</dd>`).join('')}</dl></footer>`;
}
