import { describe, expect, test } from 'vitest';
import { renderChart } from './render-svg.js';
import { budgetShown, tokenSpec, type TokenSample } from './token-chart.js';

const ARMS = ['A', 'B', 'C', 'D'];
/** 250 cases per arm, spread up to 90% of B so B is drawn. */
function samples(budget: number): TokenSample[] {
  return ARMS.flatMap((arm, a) => Array.from({ length: 250 }, (_, i) => ({ arm, variant: a % 2 === 0 ? 'baseline' : 'candidate', tokens: Math.round((budget * 0.9 * ((i * 37) % 250)) / 250) }) as TokenSample));
}

describe('token chart', () => {
  test('one B rule and one mean rule per arm, however many cases', async () => {
    const data = samples(1200);
    expect(budgetShown(data, 1200)).toBe(true);
    const { svg, warnings } = await renderChart(tokenSpec(data, ARMS, 1200), 't');
    expect(warnings).toEqual([]);
    expect(svg.match(/stroke="#dc2626"/g)).toHaveLength(ARMS.length);
    expect(svg.match(/aria-roledescription="rule mark"/g)).toHaveLength(ARMS.length);
    // Bars are bins, not cases: the page does not grow with the case count.
    expect(svg.length).toBeLessThan(80_000);
  });

  test('B is left out when no case gets to half of it', async () => {
    const data = samples(1200).map((s) => ({ ...s, tokens: Math.min(s.tokens, 500) }));
    const { svg } = await renderChart(tokenSpec(data, ARMS, 1200), 't');
    expect(svg).not.toContain('stroke="#dc2626"');
  });
});
