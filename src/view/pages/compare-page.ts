/**
 * Compare any two runs on the same cases, pure: per arm the paired per-case flips (won /
 * lost / same), the paired CI and exact McNemar p, and warnings when the budgets, datasets
 * (by hash), scorers or models differ — a comparison across those is not a same-budget one.
 */
import type { RunComparison } from '../../compare/compare-runs.js';
import type { Manifest } from '../../ledger/manifest.js';
import { escapeHtml as h } from '../../report/html/escape.js';
import type { Links } from '../links.js';
import type { RunRow } from '../run-rows.js';
import { ci, pct, pts, verdictBadge } from './format.js';

export function comparisonWarnings(a: Manifest, b: Manifest, comparison: RunComparison | undefined): string[] {
  const warnings: string[] = [];
  // Imported runs (promptfoo, inspect) have no B: null, or Infinity once read back.
  const budget = (m: Manifest): number | null => {
    const b = m.config.budget.totalTokensPerCase as number | null;
    return b === null || !Number.isFinite(b) ? null : b;
  };
  const shown = (b: number | null): string => (b === null ? 'unknown' : b.toLocaleString('en-US'));
  if (budget(a) === null || budget(b) === null) warnings.push(`B is unknown for ${budget(a) === null ? 'run A' : ''}${budget(a) === null && budget(b) === null ? ' and ' : ''}${budget(b) === null ? 'run B' : ''} (an imported run): not a same-budget comparison`);
  else if (budget(a) !== budget(b)) warnings.push(`budgets differ: B = ${shown(budget(a))} vs ${shown(budget(b))} tokens per case — not a same-budget comparison`);
  if (comparison && !comparison.datasets.same) warnings.push(`datasets differ by hash (${comparison.datasets.differences.map((d) => d.name).join(', ')}): compared on the cases both runs have`);
  if (a.scorer.name !== b.scorer.name || a.scorer.version !== b.scorer.version) warnings.push(`scorers differ: ${a.scorer.name} ${a.scorer.version} vs ${b.scorer.name} ${b.scorer.version}`);
  const models = (m: Manifest): string => `${m.config.variants.baseline.model} / ${m.config.variants.candidate.model}`;
  if (models(a) !== models(b)) warnings.push(`models differ (baseline / candidate): ${models(a)} vs ${models(b)}`);
  if (a.split !== b.split) warnings.push(`splits differ: ${a.split} vs ${b.split}`);
  return warnings;
}

export function comparePicker(runs: readonly RunRow[], a: string | undefined, b: string | undefined): string {
  const options = (chosen: string | undefined): string => ['<option value="">choose a run</option>', ...runs.filter((r) => r.status !== 'broken').map((r) => `<option value="${h(r.id)}"${r.id === chosen ? ' selected' : ''}>${h(r.id)} · ${h(r.experiment ?? '')} · ${h(r.verdict ?? r.status)}</option>`)].join('');
  return `<form class="toolbar" method="get" action="/compare"><label>run A <select name="a">${options(a)}</select></label><label>run B <select name="b">${options(b)}</select></label><button type="submit">compare</button></form>`;
}

export function comparePage(comparison: RunComparison, warnings: readonly string[], links: Links, split: string): string {
  const rows = comparison.arms.map((arm) => {
    const same = arm.sharedCases - arm.nowPassing.length - arm.nowFailing.length;
    const pass = arm.pass;
    const flips = (ids: readonly string[], label: string): string => (ids.length === 0 ? '' : `<details><summary>${ids.length} ${h(label)}</summary>${ids.slice(0, 200).map((id) => `<a href="${h(links.caseOf(comparison.b.runId, id, split))}">${h(id)}</a>`).join(', ')}${ids.length > 200 ? ` … ${ids.length - 200} more` : ''}</details>`);
    return `<tr><td>${h(arm.arm)} <span class="muted">n=${arm.n}</span></td><td class="num">${arm.sharedCases}</td>
<td class="num">${pct(pass?.baselinePass)}</td><td class="num">${pct(pass?.candidatePass)}</td><td class="num">${pts(pass?.delta.value)}</td><td class="num">${ci(pass?.delta.ci)}</td><td class="num">${pass?.mcnemarP === undefined ? 'n/a' : pass.mcnemarP.toPrecision(3)}</td>
<td class="num pass">${arm.nowPassing.length}</td><td class="num fail">${arm.nowFailing.length}</td><td class="num">${same}</td><td>${flips(arm.nowPassing, 'won (now passing)')}${flips(arm.nowFailing, 'lost (now failing)')}</td></tr>`;
  }).join('\n');
  const warn = warnings.length ? `<ul class="notes warnings">${warnings.map((w) => `<li>${h(w)}</li>`).join('')}</ul>` : '<p class="muted">Same budget, datasets (by hash), scorer and models.</p>';
  const config = comparison.config.length ? `<details><summary>${comparison.config.length} settings changed</summary><ul>${comparison.config.map((c) => `<li><code>${h(c.path)}</code>: ${h(c.a)} → ${h(c.b)}</li>`).join('')}</ul></details>` : '';
  return `<h2>Run A <a href="${h(links.run(comparison.a.runId))}">${h(comparison.a.runId)}</a> ${verdictBadge(comparison.a.verdict.verdict)} → run B <a href="${h(links.run(comparison.b.runId))}">${h(comparison.b.runId)}</a> ${verdictBadge(comparison.b.verdict.verdict)}</h2>
${warn}
<table class="grid"><thead><tr><th>arm</th><th class="num">shared cases</th><th class="num">A</th><th class="num">B</th><th class="num">B − A</th><th class="num">paired CI</th><th class="num">McNemar p</th><th class="num">won</th><th class="num">lost</th><th class="num">same</th><th>flipped cases</th></tr></thead><tbody>${rows}</tbody></table>
<p class="muted">Paired by case; CI: ${h(comparison.b.verdict.method.interval)} over cases (run B's gates); McNemar: exact, on the discordant pairs. won/lost: the arm's product outcome flipped from fail to pass / pass to fail.</p>
${config}`;
}
