/**
 * Per-category same-budget deltas (candidate − baseline at n=1) as a forest plot, pure:
 * a regression hidden by the mean shows as one row left of 0 while the total is flat.
 * Category intervals are the verdict's Bonferroni-adjusted ones, so "left of 0" means what
 * the verdict means by significantly worse.
 */
import type { TopLevelSpec } from 'vega-lite';
import type { VerdictRecord } from '../../verdict/record.js';

export interface ForestRow {
  label: string;
  /** `cases · baseline→candidate`, printed right of the plot. */
  note: string;
  delta: number;
  low: number;
  high: number;
  cases: number;
  status: 'significantly worse' | 'significantly better' | 'no significant change';
  overall: boolean;
}

export function forestRows(record: VerdictRecord): ForestRow[] {
  const pct = (x: number): string => `${Math.round(x * 100)}%`;
  const status = (low: number, high: number, worse: boolean): ForestRow['status'] => (worse || high < 0 ? 'significantly worse' : low > 0 ? 'significantly better' : 'no significant change');
  const rows: ForestRow[] = [];
  const sb = record.same_budget;
  if (sb) rows.push({ label: 'all cases', note: `${sb.cases} · ${pct(sb.baseline_pass)}→${pct(sb.candidate_pass)}`, delta: sb.delta, low: sb.ci95[0], high: sb.ci95[1], cases: sb.cases, status: status(sb.ci95[0], sb.ci95[1], false), overall: true });
  const rs = record.regression_set;
  if (rs) rows.push({ label: 'regression set', note: `${rs.cases} · ${pct(rs.baseline_pass)}→${pct(rs.candidate_pass)}`, delta: rs.delta, low: rs.ci95[0], high: rs.ci95[1], cases: rs.cases, status: status(rs.ci95[0], rs.ci95[1], rs.worse), overall: true });
  for (const c of record.categories) {
    // The verdict's `worse` also asks McNemar to agree; a CI below 0 alone is not "worse".
    rows.push({ label: c.category, note: `${c.cases} · ${pct(c.baseline_pass)}→${pct(c.candidate_pass)}`, delta: c.delta, low: c.ci[0], high: c.ci[1], cases: c.cases, status: c.worse ? 'significantly worse' : c.ci[0] > 0 ? 'significantly better' : 'no significant change', overall: false });
  }
  return rows;
}

export function forestSpec(rows: readonly ForestRow[], minGain: number, categoryConfidence: number | undefined): TopLevelSpec {
  const lowest = Math.min(0, ...rows.map((r) => r.low));
  const highest = Math.max(minGain, ...rows.map((r) => r.high));
  const pad = (highest - lowest) * 0.05 || 0.05;
  const domain = [lowest - pad, highest + pad];
  const y = { field: 'label', type: 'nominal', sort: null, title: null, axis: { labelLimit: 150, labelFontWeight: { condition: { test: "datum.value === 'all cases' || datum.value === 'regression set'", value: 700 }, value: 400 } } } as const;
  const x = { type: 'quantitative', title: 'delta, n=1 (pts)', scale: { domain, nice: false }, axis: { labelExpr: "format(datum.value * 100, '+.0f')", tickCount: 5 } } as const;
  const color = { field: 'status', type: 'nominal', legend: null, scale: { domain: ['significantly worse', 'no significant change', 'significantly better'], range: ['#dc2626', '#6b7280', '#16a34a'] } } as const;
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    width: 220,
    height: { step: 22 },
    description: `Per-category same-budget deltas${categoryConfidence === undefined ? '' : `, category intervals at ${(categoryConfidence * 100).toFixed(1)}%`}`,
    data: { values: [...rows] },
    layer: [
      { data: { values: [{ zero: 0 }] }, mark: { type: 'rule', color: '#111827', strokeWidth: 1 }, encoding: { x: { ...x, field: 'zero' } } },
      { data: { values: [{ gain: minGain }] }, mark: { type: 'rule', color: '#16a34a', strokeDash: [2, 3], strokeWidth: 1 }, encoding: { x: { ...x, field: 'gain' } } },
      { mark: { type: 'rule', strokeWidth: 2 }, encoding: { y, x: { ...x, field: 'low' }, x2: { field: 'high' }, color } },
      { mark: { type: 'square', opacity: 1 }, encoding: { y, x: { ...x, field: 'delta' }, color, size: { field: 'cases', type: 'quantitative', legend: null, scale: { range: [40, 160] } } } },
      { mark: { type: 'text', align: 'left', dx: 8, fontSize: 11, color: '#374151', clip: false }, encoding: { y, x: { datum: domain[1] ?? 0, type: 'quantitative', scale: { domain, nice: false } }, text: { field: 'note' } } },
    ],
  };
}
