/**
 * The pass-vs-tokens chart (issue 15, item 10): the x axis is zoomed to the data (date-parser's
 * arms all spend 280–400 tokens; the axis ran 0–400) and B is marked — a rule when B is near
 * the data, a note at the edge when it is far. Label boxes never overlap (measured in a
 * browser by test/report-chart-labels.test.ts; here the placement itself).
 */
import { describe, expect, test } from 'vitest';
import { ISO_CASES } from './test-support/iso-chart-cases.js';
import { isoBudgetSpec, tokenAxis } from './iso-budget-chart.js';
import { isoBudgetData } from './iso-budget-data.js';
import { placeLabels } from './label-placement.js';
import { renderChart } from './render-svg.js';

const chartOf = async (name: string): Promise<string> => {
  const c = ISO_CASES.find((x) => x.name === name);
  if (!c) throw new Error(name);
  const rendered = await renderChart(isoBudgetSpec(isoBudgetData(c.arms, [], 0.95), c.budget, 0.95), 'iso');
  expect(rendered.warnings).toEqual([]);
  return rendered.svg;
};

/** vega's own description of the x axis: "X-axis titled '…' for a linear scale with values from 250 to 450". */
const xAxis = (svg: string): [number, number] => {
  const match = /aria-label="X-axis[^"]*? values from ([\d,.]+) to ([\d,.]+)"/.exec(svg);
  if (!match) throw new Error('no x axis');
  return [Number(match[1]?.replace(/,/g, '')), Number(match[2]?.replace(/,/g, ''))];
};

describe('iso-budget chart axis', () => {
  test('date-parser: the axis is zoomed to 280–400 (not 0–400) and B = 3,000 is noted off the axis', async () => {
    const svg = await chartOf('date-parser');
    const [from, to] = xAxis(svg);
    expect(from).toBeGreaterThan(200);
    expect(from).toBeLessThanOrEqual(285);
    expect(to).toBeGreaterThanOrEqual(393);
    expect(to).toBeLessThan(500);
    expect(svg).toContain('B = 3,000 →');
  });

  test('verbose-judge: B = 2,000 is within reach of the data, so the axis runs to it and a rule marks it', async () => {
    const svg = await chartOf('verbose-judge');
    const [from, to] = xAxis(svg);
    expect(from).toBe(0);
    expect(to).toBeGreaterThanOrEqual(2000);
    expect(svg).toContain('B = 2,000</text>');
    expect(svg).toMatch(/<line[^>]*stroke="#dc2626"/);
  });

  test('tokenAxis: round bounds around the data, 0 when the data nearly reaches it, B on the axis only when near', () => {
    expect(tokenAxis(285, 393, 3000)).toEqual({ domain: [250, 450], showsBudget: false });
    expect(tokenAxis(88, 1989, 2000)).toMatchObject({ domain: [0, expect.any(Number)], showsBudget: true });
    expect(tokenAxis(900, 1000, 1200).showsBudget).toBe(true);
    expect(tokenAxis(900, 1000, 1200).domain[1]).toBeGreaterThanOrEqual(1200);
    expect(tokenAxis(5, 5, undefined).domain[0]).toBe(0);
  });
});

describe('label placement', () => {
  test('labels of coincident points part; none overlaps a point', () => {
    const frame = { width: 520, height: 330, x: [0, 1000] as const, y: [0, 1] as const };
    const requests = ['A', 'B', 'C pass@8', 'D pass@8', 'C', 'D'].map((text) => ({ x: 500, y: 0.5, text }));
    const placed = placeLabels(requests, frame, { fontSize: 12, pointRadius: 8, gap: 3 });
    for (const [i, a] of placed.entries()) {
      expect(a.box.left >= 0 && a.box.right <= 520 && a.box.top >= 0 && a.box.bottom <= 330).toBe(true);
      // The point is at (260, 165): its marker keeps an 8 px radius clear.
      expect(a.box.right <= 252 || a.box.left >= 268 || a.box.bottom <= 157 || a.box.top >= 173, a.text).toBe(true);
      for (const b of placed.slice(i + 1)) expect(a.box.right <= b.box.left || b.box.right <= a.box.left || a.box.bottom <= b.box.top || b.box.bottom <= a.box.top, `${a.text} / ${b.text}`).toBe(true);
    }
    expect(placed.filter((l) => l.leader).length).toBeGreaterThan(0);
  });
});
