/** Evolve: the loops (status, rounds, proposals, tokens, val start → final) and a loop's own report (lineage tree, screens, tokens per round). Pure. */
import { escapeHtml as h } from '../../report/html/escape.js';
import type { LoopLoad } from '../evolve-source.js';
import type { Links } from '../links.js';
import { count, pct } from './format.js';

export function evolvePage(loops: readonly LoopLoad[], links: Links, dir: string): string {
  const rows = loops.map((loop) => {
    if (!loop.ok) return `<tr><td>${h(loop.id)}</td><td colspan="6" class="muted">broken: ${h(loop.broken)}</td></tr>`;
    const s = loop.summary;
    return `<tr><td><a href="${h(links.evolve(loop.id))}">${h(loop.id)}</a></td><td>${h(s.experiment)}</td><td><span class="badge">${h(s.status)}</span></td><td class="num">${s.rounds_run}</td><td class="num">${s.proposals.accepted} / ${s.proposals.total}</td><td class="num">${count(s.tokens.total)}${s.tokens.budget_tokens === null ? '' : ` of ${count(s.tokens.budget_tokens)}`}</td><td class="num">${pct(s.val.start?.pass ?? null)} → ${pct(s.val.final?.pass ?? null)}</td></tr>`;
  }).join('');
  return `<h1>Evolve</h1><p class="lede">Loops in <code>${h(dir)}</code>: diagnose on train, propose diffs, screen on val at the same budget, accept only corrected <code>real_evolution</code>.</p>
${loops.length ? `<table class="grid"><thead><tr><th>loop</th><th>experiment</th><th>status</th><th class="num">rounds</th><th class="num">accepted / proposals</th><th class="num">tokens</th><th class="num">val pass@1</th></tr></thead><tbody>${rows}</tbody></table>` : '<p class="muted">No loops yet: <code>npx isobudget evolve examples/evolve-date-parser/experiment.yaml</code>.</p>'}`;
}

/** The loop's report body (rendered by the evolve report itself), below a link back. */
export function evolveLoopPage(id: string, reportMain: string, links: Links): string {
  return `<p><a href="${h(links.evolve())}">← loops</a></p><h1>Loop ${h(id)}</h1>${reportMain}`;
}

/** The content of a rendered page's <main>, for embedding an existing report's body. */
export function mainOf(html: string): string {
  const start = html.indexOf('<main>');
  const end = html.lastIndexOf('</main>');
  return start >= 0 && end > start ? html.slice(start + '<main>'.length, end) : '';
}
