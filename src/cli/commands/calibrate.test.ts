import { describe, expect, test } from 'vitest';
import { fileURLToPath } from 'node:url';
import { main } from '../main.js';
import type { CliIO } from '../io.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));

function capture(): { io: CliIO; out: () => string; err: () => string } {
  let out = '';
  let err = '';
  const io: CliIO = { stdout: { write: (text) => void (out += text) }, stderr: { write: (text) => void (err += text) }, env: {}, cwd: root, signal: new AbortController().signal };
  return { io, out: () => out, err: () => err };
}

// Small settings: these tests check the command's wiring, not the numbers (calibrate.test.ts does).
const quick = ['--experiments', '40', '--search-experiments', '40', '--rounds', '100', '--categories', '0'];

describe('isobudget calibrate', () => {
  test('--json prints the plan and both scenarios, with the rounds used', async () => {
    const { io, out } = capture();
    expect(await main(['calibrate', '--cases', '100', '--effect', '0.2', '--seed', '3', ...quick, '--json'], io)).toBe(0);
    const record = JSON.parse(out()) as Record<string, unknown> & { plan: { source: string; bestOfN: number[]; gates: { bootstrapRounds: number } }; null: { experiments: number }; rounds: number; search: { cases: number | null } };
    expect(record.kind).toBe('calibration');
    expect(record.plan.source).toBe('defaults');
    expect(record.plan.bestOfN).toEqual([1, 4, 8]);
    expect(record.plan.gates.bootstrapRounds).toBe(2000);
    expect(record.rounds).toBe(100);
    expect(record.null.experiments).toBe(40);
    expect(record.search.cases).not.toBeNull();
  });

  test('the table names the rounds, the rates with CIs, and reads gates, best_of_n and cases from a YAML', async () => {
    const { io, out } = capture();
    expect(await main(['calibrate', 'examples/date-parser/experiment.yaml', '--effect', '0.25', ...quick], io)).toBe(0);
    const text = out();
    expect(text).toContain('examples/date-parser/experiment.yaml (cases: its val set)');
    expect(text).toContain('200 cases');
    expect(text).toContain('best_of_n 1, 8');
    expect(text).toContain('100 bootstrap rounds per analysis (a run uses 2000)');
    expect(text).toMatch(/null \(δ = 0\)\s+\d+\.\d% false promotion\s+\[\d+\.\d%, \d+\.\d%\]/);
    expect(text).toMatch(/cases for 80% power at δ = \+0\.25: \d+ simulated/);
  });

  test('impossible plans are usage errors (exit 2) that say why', async () => {
    const { io, err } = capture();
    expect(await main(['calibrate', '--effect', '0.5', ...quick], io)).toBe(2);
    expect(err()).toContain('out of reach');
    expect(await main(['calibrate', '--spread', '0.6'], io)).toBe(2);
    expect(await main(['calibrate', '--rounds', '10'], io)).toBe(2);
  });
});

describe('isobudget calibrate --sequential', () => {
  test('--json: every contract field, keyed by effect then split size', async () => {
    const { io, out } = capture();
    expect(await main(['calibrate', '--sequential', '--cases', '80', '--experiments', '12', '--rounds', '100', '--categories', '0', '--json'], io)).toBe(0);
    const record = JSON.parse(out()) as { kind: string; plan: { sizes: number[]; sequential: { lookEvery: number } }; effects: Record<string, Record<string, Record<string, unknown>>> };
    expect(record.kind).toBe('sequential_calibration');
    expect(record.plan.sizes).toEqual([80]);
    expect(record.plan.sequential.lookEvery).toBe(20);
    expect(Object.keys(record.effects)).toEqual(['0', '0.05', '0.1', '0.15', '0.2']);
    for (const [effect, bySize] of Object.entries(record.effects)) {
      const cell = bySize['80']!;
      expect(cell).toMatchObject({ experiments: 12, tokens_fraction_mean: expect.any(Number), tokens_fraction_p90: expect.any(Number) });
      expect(Object.keys(cell)).toEqual(expect.arrayContaining(['false_promotion_rate', 'false_promotion_ci95', 'power', 'tokens_fraction_mean', 'tokens_fraction_p90']));
      if (Number(effect) < 0.08) expect(cell.false_promotion_ci95).toHaveLength(2);
      else expect(cell.power).toEqual(expect.any(Number));
    }
  });

  test('the table shows both sizes by default and names the YAML it planned from', async () => {
    const { io, out } = capture();
    expect(await main(['calibrate', '--sequential', 'examples/null/experiment.yaml', '--experiments', '4', '--rounds', '100', '--categories', '0'], io)).toBe(0);
    const text = out();
    expect(text).toContain('plan: examples/null/experiment.yaml');
    expect(text).toMatch(/^200\s+\+0\.00/m);
    expect(text).toMatch(/^800\s+\+0\.20/m);
  });
});

describe('isobudget calibrate --evolve', () => {
  test('--json reports false_accept_rate with its 95% CI, and the uncorrected greedy rate beside it', async () => {
    const { io, out } = capture();
    expect(await main(['calibrate', '--evolve', '--loops', '12', '--cases', '100', '--rounds', '200', '--json'], io)).toBe(0);
    const record = JSON.parse(out()) as { kind: string; plan: { loops: number; loop_rounds: number; candidates_per_round: number; proposer: string }; correction: string; screen_confidence: number; false_accept_rate: number; false_accept_ci95: [number, number]; uncorrected: { false_accept_rate: number; false_accept_ci95: [number, number] } };
    expect(record.kind).toBe('evolve_calibration');
    expect(record.plan).toMatchObject({ loops: 12, loop_rounds: 5, candidates_per_round: 3, proposer: 'sim-proposer-null' });
    expect(record.correction).toBe('bonferroni');
    expect(record.screen_confidence).toBeCloseTo(1 - 0.05 / 15, 12);
    expect(record.false_accept_ci95[0]).toBeLessThanOrEqual(record.false_accept_rate);
    expect(record.false_accept_ci95[1]).toBeGreaterThanOrEqual(record.false_accept_rate);
    expect(record.uncorrected.false_accept_rate).toBeGreaterThanOrEqual(record.false_accept_rate);
  });

  test('--json measures the loop as it screens by default — sequentially — beside fixed screens, with the tokens fraction', async () => {
    type Policy = { false_accept_rate: number; false_accept_ci95: [number, number]; false_accepts: number };
    const { io, out } = capture();
    expect(await main(['calibrate', '--evolve', '--loops', '6', '--cases', '100', '--rounds', '200', '--json'], io)).toBe(0);
    const record = JSON.parse(out()) as Policy & { version: number; screening: string; screen_confidence: number; tokens_fraction_mean: number; tokens_fraction_p90: number; plan: { sequential: { look_every: number; min_cases: number } }; sequential: Policy & { screen_confidence: number; stop_reasons: Record<string, number>; uncorrected: Policy }; fixed: Policy };
    expect(record).toMatchObject({ version: 2, screening: 'sequential', plan: { sequential: { look_every: 20, min_cases: 40 } } });
    expect(record.screen_confidence).toBeCloseTo(1 - 0.05 / 15, 12);
    expect(record.sequential.screen_confidence).toBeCloseTo(1 - 0.05 / 15, 12);
    expect(record.false_accept_rate).toBe(record.sequential.false_accept_rate);
    expect(record.false_accept_ci95).toEqual(record.sequential.false_accept_ci95);
    expect(record.fixed.false_accept_ci95[0]).toBeLessThanOrEqual(record.fixed.false_accept_rate);
    expect(Object.values(record.sequential.stop_reasons).reduce((a, b) => a + b, 0)).toBe(6 * 15);
    expect(record.tokens_fraction_mean).toBeGreaterThan(0);
    expect(record.tokens_fraction_mean).toBeLessThan(1);
    expect(record.tokens_fraction_p90).toBeLessThanOrEqual(1);

    const fixed = capture();
    expect(await main(['calibrate', '--evolve', '--loops', '6', '--cases', '100', '--rounds', '200', '--screening', 'fixed', '--json'], fixed.io)).toBe(0);
    const asFixed = JSON.parse(fixed.out()) as Policy & { screening: string; fixed: Policy };
    expect(asFixed.screening).toBe('fixed');
    expect(asFixed.false_accept_rate).toBe(asFixed.fixed.false_accept_rate);
  });

  test('bad counts are usage errors (exit 2)', async () => {
    const { io, err } = capture();
    expect(await main(['calibrate', '--evolve', '--loops', '0'], io)).toBe(2);
    expect(err()).toContain('--loops must be at least 1');
    const screening = capture();
    expect(await main(['calibrate', '--evolve', '--screening', 'adaptive'], screening.io)).toBe(2);
    expect(screening.err()).toContain("--screening must be sequential or fixed, got 'adaptive'");
  });
});
