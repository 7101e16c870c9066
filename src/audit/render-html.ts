/** The direction audit as a small self-contained HTML page with the trend charts. */
import type { TopLevelSpec } from 'vega-lite';
import { escapeHtml as h } from '../report/html/escape.js';
import { renderPage } from '../report/html/page.js';
import { renderChart } from '../report/html/render-svg.js';
import { REPORT_CSS } from '../report/html/styles.js';
import { COST_METRICS, METRIC_TITLES, type AuditMetric, type AuditResult } from './audit.js';
import { formatChange, formatMetric } from './render-text.js';

const ORDER: readonly AuditMetric[] = [...COST_METRICS, 'pass_at_1'];

export async function renderAuditHtml(a: AuditResult): Promise<{ html: string; warnings: string[] }> {
  const chart = await renderChart(trendSpec(a), 'audit');
  const banner = a.drift.flagged ? 'tone-bad' : a.drift.status === 'insufficient_data' ? 'tone-neutral' : 'tone-good';
  const header = ['period', 'tasks', ...ORDER.map((m) => METRIC_TITLES[m]), 'pass@1 tasks'];
  const rows = a.periods.map((p) => `<tr><th scope="row">${h(p.period.key)}</th><td>${h(p.tasks.toLocaleString('en-US'))}</td>${ORDER.map((m) => `<td>${h(formatMetric(m, p.values[m]))}</td>`).join('')}<td>${h(p.passTasks.toLocaleString('en-US'))}</td></tr>`);
  const trends = ORDER.map((m) => {
    const t = a.trends[m];
    return `<li class="check ${t.direction === 'rising' && m !== 'pass_at_1' ? 'fail' : 'ok'}"><b>${h(METRIC_TITLES[m])}</b>: ${h(t.direction)} ${h(formatChange(t))}${t.test ? ` <span class="muted">(Mann–Kendall p↑ ${h(t.test.pIncreasing.toPrecision(2))}, Sen slope ${h(t.test.slope.toPrecision(3))} per ${h(a.unit)})</span>` : ''}</li>`;
  });
  const body = `<h1>isobudget direction audit</h1>
<header class="verdict ${banner}">
  <div class="verdict-head"><div class="verdict-name">${a.drift.flagged ? 'cost drift' : a.drift.status === 'insufficient_data' ? 'not enough data' : 'no cost drift'}</div>
  <div class="verdict-who">${h(a.since.slice(0, 10))} → ${h(a.until.slice(0, 10))}, by ${h(a.unit)}<br><span class="muted">${h(a.sources.runs)} run ledgers · ${h(a.sources.gatewayFiles)} gateway files · ${h(a.sources.tasks.toLocaleString('en-US'))} tasks · same-budget pass@1 at B = ${h(a.budget?.toLocaleString('en-US') ?? '?')}</span></div></div>
  <p class="reason">${h(a.drift.reason)}</p>
</header>
<section><h2>Trends</h2><p class="lede">Is the system getting better, or only more expensive? Each measure per ${h(a.unit)}; dashed: Sen's slope. A measure "rises" when the Mann–Kendall test says so (one-sided p &lt; ${h(a.settings.alpha)}) and the change over the window is material (≥ ${h(Math.round(a.settings.minChange * 100))}%, ${h(Math.round(a.settings.minRateChange * 100))} pts for rates).</p>
<ul class="checks">${trends.join('')}</ul>
<figure class="chart wide">${chart.svg}</figure></section>
<section><h2>Per ${h(a.unit)}</h2><div class="table-wrap"><table><thead><tr>${header.map((x) => `<th>${h(x)}</th>`).join('')}</tr></thead><tbody>${rows.join('')}</tbody></table></div></section>`;
  return { html: renderPage({ title: `isobudget direction audit: ${a.drift.status}`, css: REPORT_CSS, body }), warnings: chart.warnings };
}

/** One small line chart per measure, side by side, each with its own scale and format; dashed: Sen's line. */
function trendSpec(a: AuditResult): TopLevelSpec {
  const color = { field: 'status', type: 'nominal', legend: { title: null, orient: 'top' }, scale: { domain: ['rising cost', 'improving', 'no trend'], range: ['#dc2626', '#16a34a', '#64748b'] } } as const;
  const x = { field: 'start', type: 'temporal', title: null, axis: { format: a.unit === 'month' ? '%b' : '%d %b', labelAngle: 0, tickCount: 4 } } as const;
  const charts = ORDER.map((m) => {
    const t = a.trends[m].test;
    const first = a.periods.find((p) => p.values[m] !== undefined)?.period.index ?? 0;
    const values = a.periods.flatMap((p) => (p.values[m] === undefined ? [] : [{ start: p.period.start, value: p.values[m] as number, status: status(a, m), fit: t ? t.intercept + t.slope * (p.period.index - first) : null }]));
    const format = m === 'bestofn_rate' || m === 'pass_at_1' ? '.0%' : m === 'retries_per_task' ? '.2f' : ',.0f';
    // From zero: a +7% change on an axis cut just below the data looks like a cliff.
    const y = { type: 'quantitative', title: null, axis: { format, tickCount: 4 }, scale: { zero: true } } as const;
    return {
      width: 165,
      height: 140,
      title: { text: METRIC_TITLES[m], fontSize: 12 },
      data: { values },
      layer: [
        { mark: { type: 'line' as const, point: true, strokeWidth: 2 }, encoding: { x, y: { ...y, field: 'value' }, color } },
        ...(t ? [{ mark: { type: 'line' as const, strokeDash: [5, 4], color: '#111827', strokeWidth: 1, opacity: 0.7 }, encoding: { x, y: { ...y, field: 'fit' } } }] : []),
      ],
    };
  });
  return { $schema: 'https://vega.github.io/schema/vega-lite/v6.json', hconcat: charts, resolve: { scale: { color: 'shared' } } };
}

function status(a: AuditResult, m: AuditMetric): string {
  const d = a.trends[m].direction;
  if (m === 'pass_at_1') return d === 'rising' ? 'improving' : 'no trend';
  return d === 'rising' ? 'rising cost' : d === 'falling' ? 'improving' : 'no trend';
}
