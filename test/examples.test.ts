/**
 * Each shipped example ends with the verdict it was built for (issue: the examples are
 * experiments whose outcome is known). Runs on the in-process simulator with its real waits.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { runExperiment } from '../src/runner/run-experiment.js';
import { verdictForRun } from '../src/verdict/verdict-for-run.js';
import { exampleFigures } from '../src/report/examples-table.js';
import { committedFigures } from './support/examples-results.js';

const examples = join(import.meta.dirname, '..', 'examples');

describe.concurrent('examples end with their verdicts', () => {
  test.each([
    { name: 'date-parser', expected: ['real_evolution'] },
    { name: 'search-leak', expected: ['budget_leakage'] },
    { name: 'null', expected: ['no_gain', 'inconclusive'] },
    { name: 'verbose-judge', expected: ['no_gain', 'budget_growth', 'inconclusive', 'regression'] },
  ])('$name → $expected', async ({ name, expected }) => {
    const out = mkdtempSync(join(tmpdir(), `isobudget-example-${name}-`));
    // verbose-judge makes ~3,600 judge calls; its verdict does not hinge on latency, so the
    // simulator's waits are shortened there to keep the suite quick.
    const run = await runExperiment({ configPath: join(examples, name, 'experiment.yaml'), outDir: out, env: {}, ...(name === 'verbose-judge' ? { simLatencyScale: 0.1 } : {}) });
    expect(run.results.length).toBe(run.manifest.units_planned);
    const verdict = verdictForRun(run.runDir);
    expect(expected).toContain(verdict.verdict);
    // examples/README.md's table shows these figures (npm run examples:table): a fresh run must still give them.
    expect(exampleFigures(name, verdict)).toEqual(committedFigures(name));
    expect(verdict.same_budget?.cases).toBeGreaterThanOrEqual(200);
    expect(verdict.bestofn_on?.n).toBe(8);
    if (name === 'date-parser') {
      expect(verdict.same_budget?.ci95?.[0]).toBeGreaterThan(0);
      expect(verdict.same_budget?.tokens_per_success_growth).toBeLessThanOrEqual(1.15);
    }
    if (name === 'verbose-judge') {
      // The raw judge gain is length gaming: it vanishes (CI crosses 0) at equal length.
      const lengthGaming = verdict.attribution?.findings.find((f) => f.detector === 'length_gaming');
      expect(lengthGaming?.flagged).toBe(true);
      expect((lengthGaming?.evidence.raw_judge_delta_ci as [number, number] | undefined)?.[0]).toBeGreaterThan(0);
      expect((lengthGaming?.evidence.length_controlled_ci as [number, number] | undefined)?.[0]).toBeLessThanOrEqual(0);
      expect(verdict.verdict).not.toBe('real_evolution');
    }
    if (name === 'search-leak') {
      expect(verdict.attribution?.flags).toContain('bestofn_posing');
      expect(Math.abs(verdict.same_budget?.delta ?? 1)).toBeLessThan(0.05);
      expect(verdict.bestofn_on?.candidate_pass_at_n).toBeGreaterThan((verdict.bestofn_on?.baseline_pass_at_n ?? 1) + 0.25);
    }
  });
});
