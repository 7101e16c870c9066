/**
 * The pass-vs-tokens chart's labels (issue 15, item 10), measured where they are drawn: each
 * case's chart is rendered to SVG, opened in Chromium, and the boxes the browser gives the
 * label texts and the point markers are compared. No label may overlap another label or a
 * point (verbose-judge's A and C did), and each must lie inside the plot.
 */
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { isoBudgetSpec } from '../src/report/html/iso-budget-chart.js';
import { isoBudgetData } from '../src/report/html/iso-budget-data.js';
import { renderChart } from '../src/report/html/render-svg.js';
import { ISO_CASES } from '../src/report/html/test-support/iso-chart-cases.js';

const CHROMIUM = '/usr/bin/chromium';

interface Rect {
  text: string;
  x: number;
  y: number;
  width: number;
  height: number;
}

const intersect = (a: Rect, b: Rect): boolean => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

describe.skipIf(!existsSync(CHROMIUM))('iso-budget chart labels in a browser', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run'] });
  });
  afterAll(async () => {
    await browser?.close();
  });

  test('no label overlaps another label or a point, none leaves the plot', async () => {
    const svgs = await Promise.all(ISO_CASES.map(async (c) => {
      const chart = await renderChart(isoBudgetSpec(isoBudgetData(c.arms, [], 0.95), c.budget, 0.95), `c${ISO_CASES.indexOf(c)}`);
      expect(chart.warnings).toEqual([]);
      return chart.svg;
    }));
    const page = await browser.newPage();
    await page.setContent(`<!doctype html><html><body style="margin:0;font-family:system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif">${svgs.map((svg) => `<div class="case">${svg}</div>`).join('')}</body></html>`);
    const measured = await page.$$eval('div.case', (cases) => cases.map((c) => {
      const rect = (e: Element, text: string) => {
        const r = e.getBoundingClientRect();
        return { text, x: r.x, y: r.y, width: r.width, height: r.height };
      };
      const plot = c.querySelector('svg .mark-group.role-scope > g > path.background, svg g.mark-group.role-frame path.background, svg path.background');
      return {
        // Every data text mark but B's own note: the point labels, however the spec builds them.
        labels: [...c.querySelectorAll('.mark-text.role-mark text')].filter((t) => !(t.textContent ?? '').startsWith('B =') && (t.textContent ?? '') !== '').map((t) => rect(t, t.textContent ?? '')),
        points: [...c.querySelectorAll('.mark-symbol.role-mark path')].filter((p) => !p.closest('.role-legend')).map((p) => rect(p, 'point')),
        plot: plot ? rect(plot, 'plot') : undefined,
      };
    }));
    await page.close();
    const problems: string[] = [];
    measured.forEach((chart, i) => {
      const name = ISO_CASES[i]?.name ?? String(i);
      expect(chart.labels.length, name).toBeGreaterThanOrEqual(4);
      expect(chart.points.length, name).toBeGreaterThanOrEqual(4);
      expect(chart.plot, name).toBeDefined();
      const plot = chart.plot as Rect;
      for (const [a, label] of chart.labels.entries()) {
        for (const other of chart.labels.slice(a + 1)) if (intersect(label, other)) problems.push(`${name}: "${label.text}" overlaps "${other.text}"`);
        if (chart.points.some((point) => intersect(label, point))) problems.push(`${name}: "${label.text}" covers a point`);
        const inside = label.x >= plot.x - 1 && label.x + label.width <= plot.x + plot.width + 1 && label.y >= plot.y - 1 && label.y + label.height <= plot.y + plot.height + 1;
        if (!inside) problems.push(`${name}: "${label.text}" leaves the plot`);
      }
    });
    expect(problems).toEqual([]);
  });
});
