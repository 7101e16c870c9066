/** Runs: every run, filterable by experiment, verdict and start date; live progress of running runs. Pure. */
import { escapeHtml as h } from '../../report/html/escape.js';
import type { Links } from '../links.js';
import type { RunRow } from '../run-rows.js';
import { age, count, statusBadge, usd, verdictBadge } from './format.js';

export interface RunsFilter {
  experiment: string;
  verdict: string;
  /** ISO date (YYYY-MM-DD): runs started on or after it; '' for any. */
  since: string;
}

export function filterRuns(rows: readonly RunRow[], filter: RunsFilter): RunRow[] {
  return rows.filter((r) => (filter.experiment === '' || r.experiment === filter.experiment) && (filter.verdict === '' || (r.verdict ?? '') === filter.verdict) && (filter.since === '' || (r.created_at ?? '') >= filter.since));
}

export function runsPage(all: readonly RunRow[], filter: RunsFilter, links: Links, source: string): string {
  const rows = filterRuns(all, filter);
  const options = (values: Iterable<string>, chosen: string, any: string): string =>
    [`<option value="">${h(any)}</option>`, ...[...new Set(values)].sort().map((v) => `<option value="${h(v)}"${v === chosen ? ' selected' : ''}>${h(v)}</option>`)].join('');
  const toolbar = links.mode === 'live'
    ? `<form class="toolbar" method="get" action="/">
<label>experiment <select name="experiment">${options(all.flatMap((r) => (r.experiment ? [r.experiment] : [])), filter.experiment, 'any')}</select></label>
<label>verdict <select name="verdict">${options(all.flatMap((r) => (r.verdict ? [r.verdict] : [])), filter.verdict, 'any')}</select></label>
<label>since <input type="text" name="since" placeholder="YYYY-MM-DD" value="${h(filter.since)}" size="10"></label>
<button type="submit">filter</button></form>`
    : '';
  const body = rows.map((r) => {
    const name = r.status === 'broken' ? h(r.id) : `<a href="${h(links.run(r.id))}">${h(r.id)}</a>`;
    const notes = [
      r.status === 'broken' ? `<div class="muted">broken: ${h(r.broken ?? '')} — <code>npx isobudget runs rm ${h(r.id)}</code></div>` : '',
      r.status === 'interrupted' ? `<div class="muted">interrupted — continue with <code>npx isobudget run --resume ${h(r.resumePath)}</code></div>` : '',
      r.ledger_error ? `<div class="muted">ledger not fully readable: ${h(r.ledger_error)}</div>` : '',
    ].join('');
    const tokens = r.status === 'broken' ? '—' : `${r.calls_missing_usage > 0 ? '≥' : ''}${count(r.tokens)}`;
    return `<tr><td>${name}${notes}</td><td>${h(r.experiment ?? '—')}</td><td>${statusBadge(r.status, r.id)}</td><td>${verdictBadge(r.verdict)}</td>
<td class="num">${count(r.cases)}</td><td class="num">${tokens}</td><td class="num">${r.status === 'broken' ? '—' : usd(r.cost_usd)}</td><td class="num">${count(r.tokensPerSuccess)}</td>
<td class="num" data-progress="${h(r.id)}">${h(r.progress)}</td><td class="num">${age(r.age_seconds)}</td></tr>`;
  }).join('\n');
  const empty = all.length === 0 ? `<p class="muted">No runs in ${h(source)}. Start one: <code>npx isobudget run examples/date-parser/experiment.yaml</code></p>` : rows.length === 0 ? '<p class="muted">No run matches the filter.</p>' : '';
  return `<h1>Runs</h1><p class="lede">${rows.length} of ${all.length} runs in <code>${h(source)}</code>. Tokens are every billed call (retries, judges and interrupted calls included); ≥ marks calls without usage. Tokens/success: the candidate at n=1.</p>
${toolbar}${empty}
<table class="grid" data-live-runs><thead><tr><th>run</th><th>experiment</th><th>status</th><th>verdict</th><th class="num">cases</th><th class="num">tokens</th><th class="num">cost</th><th class="num">tokens/success</th><th class="num">progress</th><th class="num">age</th></tr></thead>
<tbody>${body}</tbody></table>`;
}
