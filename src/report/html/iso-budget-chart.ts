/**
 * The iso-budget picture as a Vega-Lite spec, pure: pass rate (y) vs mean tokens per case (x)
 * for every arm and every n. Up is better, right is more expensive; the dashed segments show
 * where each n moved from baseline to candidate, the staircase is the Pareto frontier of what
 * a product could ship, hollow marks are the pass@N oracle (an upper bound, not a product).
 */
import type { TopLevelSpec } from 'vega-lite';
import { VARIANT_COLORS } from './arm-labels.js';
import type { IsoBudgetData } from './iso-budget-data.js';

export function isoBudgetSpec(data: IsoBudgetData, budget: number | undefined, confidence: number): TopLevelSpec {
  // An oracle point on top of its product point (selected@N = pass@N) gets no label of its own.
  const points = data.points.map((p) => {
    const product = data.points.find((q) => q.product && q.arm === p.arm);
    const hidden = !p.product && product !== undefined && Math.abs(product.rate - p.rate) < 0.015;
    return { ...p, caption: p.product ? p.label : hidden ? '' : `${p.label} pass@${p.n}` };
  });
  const low = Math.min(...points.map((p) => p.rateLow));
  const high = Math.max(...points.map((p) => p.rateHigh));
  const yDomain = [Math.max(0, Math.floor((low - 0.05) * 10) / 10), Math.min(1, Math.ceil((high + 0.02) * 10) / 10)];
  const x = { field: 'tokens', type: 'quantitative', title: 'mean tokens per case', scale: { zero: true, nice: true } } as const;
  const y = { field: 'rate', type: 'quantitative', title: 'pass rate', axis: { format: '.0%' }, scale: { domain: yDomain } } as const;
  const color = { field: 'variant', type: 'nominal', title: 'variant', scale: { domain: ['baseline', 'candidate'], range: [VARIANT_COLORS.baseline, VARIANT_COLORS.candidate] } } as const;
  const shape = { field: 'metric', type: 'nominal', title: 'metric', scale: { domain: ['pass@1', 'selected@N', 'pass@N (oracle)'], range: ['circle', 'square', 'diamond'] } } as const;
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    width: 520,
    height: 330,
    description: `Pass rate vs mean tokens per case, ${Math.round(confidence * 100)}% intervals${budget === undefined ? '' : `, B = ${budget} tokens per case`}`,
    layer: [
      {
        data: { values: data.frontier.map((p) => ({ tokens: p.tokens, rate: p.rate })) },
        mark: { type: 'line', interpolate: 'step-after', color: '#16a34a', strokeWidth: 1.5, opacity: 0.55 },
        encoding: { x, y, order: { field: 'tokens', type: 'quantitative' } },
      },
      {
        data: { values: data.moves.map((m) => ({ tokens: m.from.tokens, rate: m.from.rate, tokens2: m.to.tokens, rate2: m.to.rate })) },
        mark: { type: 'rule', color: '#94a3b8', strokeDash: [5, 4], strokeWidth: 1.5 },
        encoding: { x, y, x2: { field: 'tokens2' }, y2: { field: 'rate2' } },
      },
      {
        data: { values: points },
        layer: [
          { mark: { type: 'rule', strokeWidth: 1.5 }, encoding: { x, y: { ...y, field: 'rateLow' }, y2: { field: 'rateHigh' }, color } },
          { mark: { type: 'rule', strokeWidth: 1.5 }, encoding: { x: { ...x, field: 'tokensLow' }, x2: { field: 'tokensHigh' }, y, color } },
          { transform: [{ filter: 'datum.product' }], mark: { type: 'point', filled: true, size: 110, opacity: 1 }, encoding: { x, y, color, shape } },
          { transform: [{ filter: '!datum.product' }], mark: { type: 'point', filled: false, size: 110, strokeWidth: 2, opacity: 1 }, encoding: { x, y, color, shape } },
          { mark: { type: 'text', dx: 10, dy: -10, align: 'left', fontSize: 12, fontWeight: 600 }, encoding: { x, y, text: { field: 'caption' }, color } },
        ],
      },
    ],
  };
}
