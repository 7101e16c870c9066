/** The results table (issue 15, item 6): below 100 columns a narrow layout in which no row wraps at 80. */
import { describe, expect, test } from 'vitest';
import { armMetrics } from '../analysis/arm-metrics.js';
import type { ResultRecord } from '../ledger/records.js';
import { renderArmTable } from './arm-table.js';
import { wrapToWidth } from './text-wrap.js';

function results(bestOfN: readonly number[]): ResultRecord[] {
  const rows: ResultRecord[] = [];
  for (const n of bestOfN) {
    for (const variant of ['baseline', 'candidate'] as const) {
      for (let c = 0; c < 200; c += 1) {
        const passed = (c + (variant === 'candidate' ? 1 : 0)) % 3 !== 0;
        rows.push({
          schema_version: 1, kind: 'result', run_id: 'r', case_id: `case-${c}`, arm: n === 1 ? `${variant}_single` : `${variant}_best_of_${n}`, variant, n, epoch: 0, split: 'val', category: 'x',
          passed, passed_any: passed, passes: passed ? n : 0, selected_path: 0, judge_score: undefined,
          paths: Array.from({ length: n }, (_, path) => ({ path, output: '', passed, score: 0, finish_reason: 'stop' as const, tokens: 10, error: undefined })),
          prompt_tokens: 100, completion_tokens: 12_345, total_tokens: 1_234_567, calls_missing_usage: 0, calls: n, retries: 0, budget: 3_000_000, budget_exhausted: false, over_budget: false, latency_ms: 123_456, ts: '',
        });
      }
    }
  }
  return rows;
}

const rowWidth = (text: string): number => Math.max(...text.split('\n').map((line) => [...line].length));

describe('arm table', () => {
  test('at 80 columns no row is wider than 79, and every arm and measure is there', () => {
    for (const bestOfN of [[1, 8], [1, 4, 8]]) {
      const metrics = armMetrics(results(bestOfN));
      const table = renderArmTable(metrics, 80);
      expect(rowWidth(table), table).toBeLessThanOrEqual(79);
      for (const title of ['pass@1', 'pass@N', 'selected@N', 'tokens/case', 'tokens/success', 'p95 ms', 'budget-exh.', 'errors']) expect(table).toMatch(new RegExp(`^${title.replace(/[.@/]/g, '\\$&')}\\s`, 'm'));
      for (const m of metrics) expect(table).toContain(`${m.variant} n=${m.n}`);
    }
  });

  test('below 100 columns narrow; wide where it fits; no width (a pipe): wide', () => {
    const metrics = armMetrics(results([1, 8]));
    const wide = renderArmTable(metrics);
    expect(wide.split('\n')[0]).toMatch(/^arm\s+n\s+cases\s+pass@1/);
    expect(renderArmTable(metrics, 99)).not.toBe(wide);
    expect(renderArmTable(metrics, 200)).toBe(wide);
    // Wider than 100 but too narrow for the wide rows: still narrow.
    expect(rowWidth(renderArmTable(metrics, 110))).toBeLessThanOrEqual(109);
  });
});

describe('wrapToWidth', () => {
  test('wraps at spaces with a hanging indent, cuts words longer than a row, leaves short lines and pipes alone', () => {
    const text = `  pass@1 58.5% → 82.5%   delta +24.0 pts, 95% CI [+18.5, +30.0] (BCa; McNemar p=7.11e-15) ${'x'.repeat(100)}\nshort`;
    const wrapped = wrapToWidth(text, 40);
    expect(rowWidth(wrapped)).toBeLessThanOrEqual(39);
    expect(wrapped.split('\n')[0]).toMatch(/^ {2}pass@1/);
    expect(wrapped.split('\n')[1]).toMatch(/^ {4}\S/);
    expect(wrapped.endsWith('\nshort')).toBe(true);
    expect(wrapped.replace(/\s+/g, '')).toBe(text.replace(/\s+/g, ''));
    expect(wrapToWidth(text, undefined)).toBe(text);
  });
});
