/**
 * What got worse: the regression set, significantly worse categories, and the individual
 * cases the candidate lost (the baseline passed, the candidate failed), each linking to the
 * case table. Pure.
 */
import type { VerdictRecord } from '../../verdict/record.js';
import type { CaseBrowserData, CaseRowData } from './case-data.js';
import { escapeHtml as h } from './escape.js';
import { pct, pts, ptsInterval } from './format.js';

const LIST_LIMIT = 40;

export function regressionSection(record: VerdictRecord, cases: CaseBrowserData): string {
  const parts: string[] = [];
  const rs = record.regression_set;
  if (rs) {
    parts.push(`<div class="reg-block ${rs.worse ? 'bad' : ''}"><h3>Regression set</h3><p>${rs.cases} cases the baseline is known to pass: ${h(pct(rs.baseline_pass))} → ${h(pct(rs.candidate_pass))}, ${h(pts(rs.delta))} ${h(ptsInterval(rs.ci95))}${rs.worse ? ' — <b>significantly worse</b>' : ''}.</p>${caseLinks(rs.lost_cases, 'lost by the candidate', undefined)}</div>`);
  } else {
    parts.push('<div class="reg-block"><h3>Regression set</h3><p class="muted">The experiment has no regression set (<code>datasets.regression</code>); only the categories below guard against hidden regressions.</p></div>');
  }
  const worse = record.categories.filter((c) => c.worse);
  parts.push(`<div class="reg-block ${worse.length ? 'bad' : ''}"><h3>Categories significantly worse</h3>${worse.length ? `<ul>${worse.map((c) => `<li><b>${h(c.category)}</b>: ${h(pct(c.baseline_pass))} → ${h(pct(c.candidate_pass))}, ${h(pts(c.delta))} ${h(ptsInterval(c.ci))} over ${c.cases} cases</li>`).join('')}</ul>` : `<p class="muted">None of ${record.categories.length} categories.</p>`}</div>`);
  const { a, b, c, d } = cases.roles;
  const evaluated = cases.rows.filter((r) => r.s !== 'regression');
  const lost1 = lostCases(evaluated, a, b);
  parts.push(`<div class="reg-block"><h3>Cases lost at n=1</h3><p>The baseline (A) passed, the candidate (B) failed: <b>${lost1.length}</b> of ${evaluated.length} cases${lost1.length ? ` (it won ${lostCases(evaluated, b, a).length} the other way)` : ''}.</p>${caseLinks(lost1.map((r) => r.id), 'lost', new Map(lost1.map((r) => [r.id, r.c])))}</div>`);
  if (c >= 0 && d >= 0) {
    const lostN = lostCases(evaluated, c, d);
    const n = cases.arms[d]?.n ?? 'N';
    parts.push(`<div class="reg-block"><h3>Cases lost at n=${n}</h3><p>C passed, D failed: <b>${lostN.length}</b> cases.</p>${caseLinks(lostN.map((r) => r.id), 'lost', new Map(lostN.map((r) => [r.id, r.c])))}</div>`);
  }
  return `<section class="regressions"><h2>Regressions</h2><div class="reg-grid">${parts.join('')}</div></section>`;
}

function lostCases(rows: readonly CaseRowData[], before: number, after: number): CaseRowData[] {
  if (before < 0 || after < 0) return [];
  return rows.filter((r) => {
    const x = r.a[before];
    const y = r.a[after];
    return x !== null && x !== undefined && y !== null && y !== undefined && x.p > y.p;
  });
}

function caseLinks(ids: readonly string[], what: string, categories: Map<string, string> | undefined): string {
  if (ids.length === 0) return '';
  const shown = ids.slice(0, LIST_LIMIT).map((id) => {
    const category = categories?.get(id);
    return `<a class="case-link" href="#case=${h(caseHash(id))}">${h(id)}</a>${category ? ` <span class="muted">${h(category)}</span>` : ''}`;
  });
  const more = ids.length > LIST_LIMIT ? `<li class="muted">… and ${ids.length - LIST_LIMIT} more ${h(what)} (use the case table's filter)</li>` : '';
  return `<ul class="case-links">${shown.map((s) => `<li>${s}</li>`).join('')}${more}</ul>`;
}

/**
 * The `#case=` fragment of an id. encodeURIComponent throws "URI malformed" on a lone
 * surrogate, which has no UTF-8 form: it becomes U+FFFD, as the case table compares ids.
 */
export function caseHash(id: string): string {
  return encodeURIComponent(id.replace(LONE_SURROGATE, '\uFFFD'));
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
