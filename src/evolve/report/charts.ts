/** Vega-Lite specs of the loop report, pure: n=1 pass on val per round with CIs, and tokens per round by phase. */
import type { TopLevelSpec } from 'vega-lite';
import type { EvolveSummary } from '../summary.js';

export function valPassSpec(summary: EvolveSummary): TopLevelSpec {
  const start = summary.val.start;
  const points = [...(start ? [{ ...start, round: 0 }] : []), ...summary.val.per_round].map((p) => ({ round: p.round, version: `v${p.version}`, pass: p.pass, low: p.ci95[0], high: p.ci95[1] }));
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    description: 'Incumbent n=1 pass rate on val at the end of each round, Wilson 95% intervals',
    data: { values: points },
    width: 520,
    height: 220,
    layer: [
      { mark: { type: 'rule', color: '#94a3b8' }, encoding: { x: { field: 'round', type: 'ordinal', title: 'round (0 = start)' }, y: { field: 'low', type: 'quantitative', title: 'n=1 pass on val', scale: { domain: [0, 1] }, axis: { format: '%' } }, y2: { field: 'high' } } },
      { mark: { type: 'line', color: '#15803d', point: { filled: true, size: 60, color: '#15803d' } }, encoding: { x: { field: 'round', type: 'ordinal' }, y: { field: 'pass', type: 'quantitative' } } },
      { mark: { type: 'text', dy: -12, fontSize: 11, color: '#374151' }, encoding: { x: { field: 'round', type: 'ordinal' }, y: { field: 'pass', type: 'quantitative' }, text: { field: 'version' } } },
    ],
  };
}

export function tokensSpec(summary: EvolveSummary): TopLevelSpec {
  const rows = summary.tokens.per_round.flatMap((r) => (['diagnose', 'propose', 'screen'] as const).map((phase) => ({ round: r.round, phase, tokens: r[phase] })));
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    description: 'Tokens spent per round, by phase',
    data: { values: rows },
    width: 420,
    height: 220,
    mark: { type: 'bar' },
    encoding: {
      x: { field: 'round', type: 'ordinal', title: 'round' },
      y: { field: 'tokens', type: 'quantitative', title: 'tokens', aggregate: 'sum' },
      color: { field: 'phase', type: 'nominal', title: 'phase', scale: { domain: ['diagnose', 'propose', 'screen'], range: ['#f59e0b', '#8b5cf6', '#2563eb'] } },
    },
  };
}
