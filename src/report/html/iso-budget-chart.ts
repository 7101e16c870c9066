/**
 * The iso-budget picture as a Vega-Lite spec, pure: pass rate (y) vs mean tokens per case (x)
 * for every arm and every n. Up is better, right is more expensive; the dashed segments show
 * where each n moved from baseline to candidate, the staircase is the Pareto frontier of what
 * a product could ship, hollow marks are the pass@N oracle (an upper bound, not a product).
 *
 * The x axis is zoomed to the data (date-parser's arms all spend 280–400 tokens of B = 3,000:
 * an axis from 0 would squeeze them into a corner) and B is marked: a red rule where it fits
 * the zoomed axis, else a note at the right edge. Labels are placed here, not by vega, so
 * that close points (verbose-judge's A and C) never get overlapping labels.
 */
import type { TopLevelSpec } from 'vega-lite';
import { VARIANT_COLORS } from './arm-labels.js';
import type { IsoBudgetData } from './iso-budget-data.js';
import { pixelBox, placeLabels, textWidth, type Box, type PlotFrame } from './label-placement.js';

export const ISO_WIDTH = 520;
export const ISO_HEIGHT = 330;
const LABEL_STYLE = { fontSize: 12, pointRadius: 8, gap: 3 } as const;
const BUDGET_COLOR = '#dc2626';
/** B is drawn on the axis when it is at most this far beyond the data (× the largest value). */
const BUDGET_REACH = 1.3;

export function isoBudgetSpec(data: IsoBudgetData, budget: number | undefined, confidence: number): TopLevelSpec {
  // An oracle point on top of its product point (selected@N = pass@N) gets no label of its own.
  const points = data.points.map((p) => {
    const product = data.points.find((q) => q.product && q.arm === p.arm);
    const hidden = !p.product && product !== undefined && Math.abs(product.rate - p.rate) < 0.015;
    return { ...p, caption: p.product ? p.label : hidden ? '' : `${p.label} pass@${p.n}` };
  });
  const low = Math.min(...points.map((p) => p.rateLow));
  const high = Math.max(...points.map((p) => p.rateHigh));
  const yDomain: [number, number] = [Math.max(0, Math.floor((low - 0.05) * 10) / 10), Math.min(1, Math.ceil((high + 0.02) * 10) / 10)];
  const xAxis = tokenAxis(Math.min(...points.map((p) => p.tokensLow)), Math.max(...points.map((p) => p.tokensHigh)), budget);
  const xDomain: number[] = [...xAxis.domain];
  const frame: PlotFrame = { width: ISO_WIDTH, height: ISO_HEIGHT, x: xAxis.domain, y: yDomain };
  const budgetNote = budget !== undefined && !xAxis.showsBudget ? `B = ${budget.toLocaleString('en-US')} →` : undefined;
  const reserved: Box[] = budgetNote ? [{ left: ISO_WIDTH - textWidth(budgetNote, 11) - 8, top: 0, right: ISO_WIDTH, bottom: 18 }] : xAxis.showsBudget ? [budgetLabelBox(frame, budget ?? 0)] : [];
  // The interval bars too: a label across a bar is hard to read.
  for (const p of points) reserved.push(pixelBox(frame, p.tokens, p.rateLow, p.tokens, p.rateHigh, 1), pixelBox(frame, p.tokensLow, p.rate, p.tokensHigh, p.rate, 1));
  // Product points first: their labels get the best places.
  const labelled = [...points.filter((p) => p.caption && p.product), ...points.filter((p) => p.caption && !p.product)];
  const labels = placeLabels(labelled.map((p) => ({ x: p.tokens, y: p.rate, text: p.caption })), frame, LABEL_STYLE, reserved)
    .map((l, i) => ({ ...l, variant: labelled[i]?.variant ?? 'baseline' }));

  const x = { field: 'tokens', type: 'quantitative', title: 'mean tokens per case', scale: { domain: xDomain, nice: false, zero: false } } as const;
  const y = { field: 'rate', type: 'quantitative', title: 'pass rate', axis: { format: '.0%' }, scale: { domain: yDomain, nice: false } } as const;
  const color = { field: 'variant', type: 'nominal', title: 'variant', scale: { domain: ['baseline', 'candidate'], range: [VARIANT_COLORS.baseline, VARIANT_COLORS.candidate] } } as const;
  const shape = { field: 'metric', type: 'nominal', title: 'metric', scale: { domain: ['pass@1', 'selected@N', 'pass@N (oracle)'], range: ['circle', 'square', 'diamond'] } } as const;
  const leaders = labels.flatMap((l) => (l.leader ? [{ tokens: l.x, rate: l.y, tokens2: l.leader.x, rate2: l.leader.y }] : []));
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    width: ISO_WIDTH,
    height: ISO_HEIGHT,
    description: `Pass rate vs mean tokens per case, ${Math.round(confidence * 100)}% intervals${budget === undefined ? '' : `, B = ${budget} tokens per case`}`,
    layer: [
      ...(xAxis.showsBudget && budget !== undefined
        ? [
          { data: { values: [{ tokens: budget }] }, mark: { type: 'rule' as const, color: BUDGET_COLOR, strokeDash: [4, 3], strokeWidth: 1.5 }, encoding: { x } },
          { data: { values: [{ tokens: budget, rate: yDomain[1] }] }, mark: { type: 'text' as const, color: BUDGET_COLOR, align: 'right' as const, baseline: 'top' as const, dx: -4, dy: 4, fontSize: 11, fontWeight: 600 as const }, encoding: { x, y, text: { value: `B = ${budget.toLocaleString('en-US')}` } } },
        ]
        : []),
      ...(budgetNote
        ? [{ data: { values: [{}] }, mark: { type: 'text' as const, color: BUDGET_COLOR, align: 'right' as const, baseline: 'top' as const, x: ISO_WIDTH - 4, y: 4, fontSize: 11, fontWeight: 600 as const, tooltip: `B = ${budget?.toLocaleString('en-US')} tokens per case, off this zoomed axis` }, encoding: { text: { value: budgetNote } } }]
        : []),
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
        ],
      },
      ...(leaders.length ? [{ data: { values: leaders }, mark: { type: 'rule' as const, color: '#9ca3af', strokeWidth: 1 }, encoding: { x, y, x2: { field: 'tokens2' }, y2: { field: 'rate2' } } }] : []),
      {
        data: { values: labels.map((l) => ({ tokens: l.labelX, rate: l.labelY, caption: l.text, variant: l.variant })) },
        name: 'point_labels',
        mark: { type: 'text', align: 'center', baseline: 'middle', fontSize: LABEL_STYLE.fontSize, fontWeight: 600 },
        encoding: { x, y, text: { field: 'caption' }, color },
      },
    ],
  };
}

/** Where "B = …" sits under the top of the B rule (kept clear of point labels). */
function budgetLabelBox(frame: PlotFrame, budget: number): Box {
  const px = ((budget - frame.x[0]) / (frame.x[1] - frame.x[0])) * frame.width;
  const w = textWidth(`B = ${budget.toLocaleString('en-US')}`, 11);
  return { left: px - w - 6, top: 0, right: px + 2, bottom: 20 };
}

/**
 * The x domain: the data's range plus a tenth on each side, on round numbers; from 0 when the
 * data nearly reaches it anyway or spans almost nothing; stretched to B when B is within reach (so the rule can show
 * the headroom), else B is left off the axis and noted.
 */
export function tokenAxis(lowest: number, highest: number, budget: number | undefined): { domain: [number, number]; showsBudget: boolean } {
  const low = Number.isFinite(lowest) ? Math.max(0, lowest) : 0;
  let high = Number.isFinite(highest) ? Math.max(low, highest) : 1;
  const showsBudget = budget !== undefined && budget > 0 && budget <= Math.max(high, 1) * BUDGET_REACH;
  if (showsBudget) high = Math.max(high, budget);
  const span = Math.max(high - low, high * 0.1, 1);
  let from = Math.max(0, low - span * 0.1);
  const to = high + span * 0.1;
  // Nothing to zoom on (every arm spends about the same), or the data nearly reaches 0 anyway.
  if (from <= to * 0.35 || high - low < high * 0.05) from = 0;
  const step = niceStep((to - from) / 5);
  return { domain: [Math.floor(from / step) * step, Math.ceil(to / step) * step], showsBudget };
}

/** 1, 2, 2.5 or 5 × a power of ten, at least `raw`. */
function niceStep(raw: number): number {
  const power = 10 ** Math.floor(Math.log10(Math.max(raw, 1e-9)));
  return ([1, 2, 2.5, 5, 10].find((m) => m * power >= raw) ?? 10) * power;
}
