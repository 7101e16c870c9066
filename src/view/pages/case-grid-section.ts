/**
 * The case grid as HTML, pure: a toolbar (filter, search), the page of rows and a pager. In
 * the bundle every row is there, flagged with the filters it matches, and the script hides
 * the others.
 */
import type { ArmPlan } from '../../ledger/manifest.js';
import { escapeHtml as h } from '../../report/html/escape.js';
import { FILTER_LABELS, GRID_FILTERS, matchesFilter, type ArmRoles, type GridCell, type GridPage, type GridQuery, type GridRow } from '../case-grid.js';
import type { Links } from '../links.js';
import { count } from './format.js';

export interface GridSectionInput {
  runId: string;
  arms: readonly ArmPlan[];
  roles: ArmRoles;
  page: GridPage;
  query: GridQuery;
  /** Rows in the run (before filtering). */
  total: number;
  /** Case text for the bundle's in-page search (id → input). */
  inputs?: ReadonlyMap<string, string>;
  links: Links;
}

function cellHtml(cell: GridCell | undefined): string {
  if (!cell) return '<td class="muted">—</td>';
  const tone = cell.passed === cell.runs ? 'pass' : cell.passed === 0 ? 'fail' : 'mixed';
  const flags = [
    cell.errors > 0 ? `<span class="flag bad" title="paths with an error">err ${cell.errors}</span>` : '',
    cell.budgetExhausted > 0 ? `<span class="flag" title="paths that ran out of budget">budget ${cell.budgetExhausted}</span>` : '',
    cell.length > 0 ? `<span class="flag" title="paths cut at max_tokens">length ${cell.length}</span>` : '',
  ].join('');
  const any = cell.passedAny > cell.passed ? ` <span class="muted" title="any path passed (pass@N)">any ${cell.passedAny}/${cell.runs}</span>` : '';
  return `<td class="${tone}">${cell.passed}/${cell.runs}${any}${flags}<div class="muted">${cell.tokens === undefined ? 'tokens ?' : `${count(cell.tokens)} tok`}</div></td>`;
}

function delta(row: GridRow, roles: ArmRoles): string {
  const a = roles.baselineSingle === undefined ? undefined : row.cells.get(roles.baselineSingle);
  const b = roles.candidateSingle === undefined ? undefined : row.cells.get(roles.candidateSingle);
  if (!a || !b || a.runs === 0 || b.runs === 0) return '<td class="muted">—</td>';
  const d = b.passed / b.runs - a.passed / a.runs;
  if (d === 0) return '<td class="muted" title="same at n=1">=</td>';
  return `<td class="${d > 0 ? 'pass' : 'fail'}" title="candidate − baseline pass rate at n=1">${d > 0 ? '▲ won' : '▼ lost'}</td>`;
}

export function gridSection(input: GridSectionInput): string {
  const { links, query, page } = input;
  const bundle = links.mode === 'bundle';
  const head = `<tr><th>case</th><th>category</th><th>n=1 Δ</th>${input.arms.map((a) => `<th>${h(a.arm)}<div class="muted">${h(a.variant)}, n=${a.n}</div></th>`).join('')}</tr>`;
  const body = page.rows.map((row) => {
    const flags = bundle ? GRID_FILTERS.filter((f) => f !== 'all' && matchesFilter(row, f, input.roles)).join(' ') : '';
    const search = bundle ? `${row.caseId}\n${(input.inputs?.get(row.caseId) ?? '').slice(0, 600)}`.toLowerCase() : '';
    const attrs = bundle ? ` data-f="${h(flags)}" data-s="${h(search)}"` : '';
    return `<tr${attrs}><td><a href="${h(links.caseOf(input.runId, row.caseId, row.split))}">${h(row.caseId)}</a>${row.split === 'val' ? '' : ` <span class="muted">${h(row.split)}</span>`}</td><td>${h(row.category ?? '—')}</td>${delta(row, input.roles)}${input.arms.map((a) => cellHtml(row.cells.get(a.arm))).join('')}</tr>`;
  }).join('\n');
  const pager = bundle
    ? `<div class="pager"><span id="grid-count">${count(page.matching)} of ${count(input.total)} cases</span><span class="muted">(the bundle searches ids and inputs; the live viewer also searches outputs)</span></div>`
    : `<div class="pager">${page.page > 0 ? `<a data-page href="${h(links.run(input.runId, { ...query, page: page.page - 1 }))}">← previous</a>` : ''}<span>${count(page.matching)} of ${count(input.total)} cases · page ${page.page + 1} of ${page.pages}</span>${page.page + 1 < page.pages ? `<a data-page href="${h(links.run(input.runId, { ...query, page: page.page + 1 }))}">next →</a>` : ''}</div>`;
  return `<div id="grid">${pager}<table class="grid cases"><thead>${head}</thead><tbody>${body}</tbody></table>${page.rows.length === 0 ? '<p class="muted">No case matches.</p>' : ''}</div>`;
}

export function gridToolbar(runId: string, query: GridQuery, links: Links): string {
  const options = GRID_FILTERS.map((f) => `<option value="${f}"${f === query.filter ? ' selected' : ''}>${h(FILTER_LABELS[f])}</option>`).join('');
  const action = links.mode === 'live' ? links.run(runId) : '';
  return `<form id="grid-form" class="toolbar" method="get" action="${h(action)}"><label>show <select name="filter">${options}</select></label><input type="search" name="q" value="${h(query.search)}" placeholder="search ids, inputs, outputs" size="36"><button type="submit">search</button></form>`;
}
