/**
 * Tokens per case, one histogram per arm on a shared axis, pure. The mean is the rule; B is
 * drawn only when some arm gets near it (otherwise it would squash every histogram to the
 * left edge and hide the differences that matter).
 */
import type { TopLevelSpec } from 'vega-lite';
import { VARIANT_COLORS } from './arm-labels.js';

export interface TokenSample {
  arm: string;
  variant: 'baseline' | 'candidate';
  tokens: number;
}

/** Whether B is drawn: only when some case gets to half of it. */
export function budgetShown(samples: readonly TokenSample[], budget: number | undefined): boolean {
  return budget !== undefined && samples.reduce((acc, s) => Math.max(acc, s.tokens), 0) >= budget * 0.5;
}

export function tokenSpec(samples: readonly TokenSample[], order: readonly string[], budget: number | undefined): TopLevelSpec {
  const showBudget = budgetShown(samples, budget);
  const color = { field: 'variant', type: 'nominal', legend: null, scale: { domain: ['baseline', 'candidate'], range: [VARIANT_COLORS.baseline, VARIANT_COLORS.candidate] } } as const;
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    description: 'Tokens per case, one histogram per arm',
    data: { values: [...samples] },
    facet: { row: { field: 'arm', type: 'nominal', sort: [...order], title: null, header: { labelAngle: 0, labelAlign: 'left', labelFontWeight: 600 } } },
    spec: {
      width: 900,
      height: 56,
      layer: [
        {
          mark: { type: 'bar', opacity: 0.85 },
          encoding: {
            x: { field: 'tokens', type: 'quantitative', bin: { maxbins: 40, ...(showBudget && budget !== undefined ? { extent: [0, budget] } : {}) }, title: 'tokens per case' },
            y: { aggregate: 'count', type: 'quantitative', title: 'cases', axis: { tickCount: 2 } },
            color,
          },
        },
        { mark: { type: 'rule', color: '#111827', strokeWidth: 1.5 }, encoding: { x: { aggregate: 'mean', field: 'tokens', type: 'quantitative' } } },
        // One row per facet first: a datum rule is drawn once per data row, and the facet's
        // rows are every case (4,000 overlaid lines, most of the page's bytes, at 1,000 cases).
        ...(showBudget
          ? [{ transform: [{ aggregate: [{ op: 'count' as const, as: 'cases' }] }], mark: { type: 'rule' as const, color: '#dc2626', strokeDash: [4, 3] }, encoding: { x: { datum: budget ?? 0, type: 'quantitative' as const } } }]
          : []),
      ],
    },
  };
}
