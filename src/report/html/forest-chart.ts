/**
 * Per-category same-budget deltas (candidate − baseline at n=1) as a forest plot, pure:
 * a regression hidden by the mean shows as one row left of 0 while the total is flat.
 * Category intervals are the verdict's Bonferroni-adjusted ones, so "left of 0" means what
 * the verdict means by significantly worse.
 */
import type { TopLevelSpec } from 'vega-lite';
import type { Interval, VerdictRecord } from '../../verdict/record.js';

export interface ForestRow {
  label: string;
  /** `cases · baseline→candidate`, printed right of the plot. */
  note: string;
  delta: number;
  /** Interval ends; null when the interval is undefined (too few cases): no bar is drawn. */
  low: number | null;
  high: number | null;
  cases: number;
  status: 'significantly worse' | 'significantly better' | 'no significant change';
  overall: boolean;
}

export function forestRows(record: VerdictRecord): ForestRow[] {
  const pct = (x: number): string => `${Math.round(x * 100)}%`;
  // The verdict's `worse` also asks McNemar to agree; a CI below 0 alone is not "worse".
  const status = (ci: Interval | null, worse: boolean): ForestRow['status'] => (worse ? 'significantly worse' : ci !== null && ci[0] > 0 ? 'significantly better' : 'no significant change');
  const row = (label: string, what: { cases: number; baseline_pass: number; candidate_pass: number; delta: number }, ci: Interval | null, worse: boolean, overall: boolean): ForestRow => {
    const defined = ci !== null && Number.isFinite(ci[0]) && Number.isFinite(ci[1]);
    return {
      label,
      note: `${what.cases} · ${pct(what.baseline_pass)}→${pct(what.candidate_pass)}${defined ? '' : ' · CI n/a'}`,
      delta: what.delta,
      low: defined ? ci[0] : null,
      high: defined ? ci[1] : null,
      cases: what.cases,
      status: status(defined ? ci : null, worse),
      overall,
    };
  };
  const rows: ForestRow[] = [];
  const sb = record.same_budget;
  if (sb) rows.push(row('all cases', sb, sb.ci95, sb.ci95 !== null && sb.ci95[1] < 0, true));
  const rs = record.regression_set;
  if (rs) rows.push(row('regression set', rs, rs.ci95, rs.worse, true));
  for (const c of record.categories) rows.push(row(c.category, c, c.ci, c.worse, false));
  return rows;
}

export function forestSpec(rows: readonly ForestRow[], minGain: number, categoryConfidence: number | undefined): TopLevelSpec {
  // Rows without an interval still place their point: the domain spans every drawn value.
  const lowest = Math.min(0, ...rows.flatMap((r) => [r.low ?? r.delta, r.delta]));
  const highest = Math.max(minGain, ...rows.flatMap((r) => [r.high ?? r.delta, r.delta]));
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
      // An undefined interval draws no bar (an x2 of NaN would), only its point and "CI n/a".
      { transform: [{ filter: 'isValid(datum.low) && isValid(datum.high)' }], mark: { type: 'rule', strokeWidth: 2 }, encoding: { y, x: { ...x, field: 'low' }, x2: { field: 'high' }, color } },
      { mark: { type: 'square', opacity: 1 }, encoding: { y, x: { ...x, field: 'delta' }, color, size: { field: 'cases', type: 'quantitative', legend: null, scale: { range: [40, 160] } } } },
      { mark: { type: 'text', align: 'left', dx: 8, fontSize: 11, color: '#374151', clip: false }, encoding: { y, x: { datum: domain[1] ?? 0, type: 'quantitative', scale: { domain, nice: false } }, text: { field: 'note' } } },
    ],
  };
}
