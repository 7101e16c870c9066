/** Run: the report's content (verdict, tiles, checks, charts, arms) above the case grid. Pure. */
import { escapeHtml as h } from '../../report/html/escape.js';
import type { GridPage, GridQuery } from '../case-grid.js';
import type { Links } from '../links.js';
import type { RunView } from '../run-source.js';
import { gridSection, gridToolbar } from './case-grid-section.js';

export function runPage(run: RunView, reportBody: string, page: GridPage, query: GridQuery, links: Links): string {
  const inputs = new Map([...run.report.texts].map(([id, text]) => [id, text.input]));
  const notice = run.provisional
    ? `<p class="notes"><b>${h(run.manifest.status)}</b>: no verdict.json yet — the verdict below is decided now from the results so far and is not the run's.${run.manifest.status === 'interrupted' ? ` Continue with <code>npx isobudget run --resume ${h(run.dir)}</code>.` : ''}</p>`
    : '';
  const compare = links.compare(run.id);
  return `${notice}${reportBody}
<section><h2>Cases</h2><p class="lede">One row per case; epochs and repeats folded into k/n (passed of runs). n=N arms count the selected path; "any" is pass@N.${compare ? ` <a href="${h(compare)}">Compare this run with another</a>.` : ''} <a href="${h(links.csv(run.id))}" download>Download the results as CSV</a> (one row per case × arm × epoch).</p>
${gridToolbar(run.id, query, links)}
${gridSection({ runId: run.id, arms: run.manifest.arms, roles: run.roles, page, query, total: run.rows.length, inputs, links })}</section>`;
}
