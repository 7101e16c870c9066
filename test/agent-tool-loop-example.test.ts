/**
 * examples/tool-loop ends as built: the candidate reaches the same answers with redundant
 * lookups and retries, so its pass@1 is the baseline's, its trajectories hold more calls,
 * duplicates and retries per success, its tokens_per_success grows past the gate, and the
 * verdict does not promote it.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import type { ResultRecord } from '../src/ledger/records.js';
import { runExperiment } from '../src/runner/run-experiment.js';
import { verdictForRun } from '../src/verdict/verdict-for-run.js';
import { exampleFigures } from '../src/report/examples-table.js';
import { committedFigures } from './support/examples-results.js';

const config = join(import.meta.dirname, '..', 'examples', 'tool-loop', 'experiment.yaml');

interface ArmTools {
  passRate: number;
  successes: number;
  callsPerSuccess: number;
  duplicatesPerSuccess: number;
  retriesPerSuccess: number;
  tokensPerSuccess: number;
}

/** Tool use per success of one arm, from the trajectories (selected path at n=1: the only one). */
function armTools(results: readonly ResultRecord[], arm: string): ArmTools {
  const rows = results.filter((r) => r.arm === arm && r.split !== 'regression');
  let calls = 0;
  let duplicates = 0;
  let retries = 0;
  let tokens = 0;
  for (const row of rows) {
    tokens += row.total_tokens ?? Number.NaN;
    for (const path of row.paths) {
      const seen = new Set<string>();
      for (const step of path.trajectory ?? []) {
        calls += 1;
        const key = `${step.tool}:${step.args_hash}`;
        if (seen.has(key)) duplicates += 1;
        seen.add(key);
        if (step.retry) retries += 1;
      }
    }
  }
  const successes = rows.filter((r) => r.passed).length;
  return { passRate: successes / rows.length, successes, callsPerSuccess: calls / successes, duplicatesPerSuccess: duplicates / successes, retriesPerSuccess: retries / successes, tokensPerSuccess: tokens / successes };
}

test('tool-loop: same answers, redundant tool use, not promoted', async () => {
  const out = mkdtempSync(join(tmpdir(), 'isobudget-example-tool-loop-'));
  const run = await runExperiment({ configPath: config, outDir: out, env: {} });
  expect(run.manifest.status).toBe('complete');
  expect(run.results.length).toBe(run.manifest.units_planned);
  const verdict = verdictForRun(run.runDir);
  expect(verdict.same_budget?.cases).toBeGreaterThanOrEqual(200);
  expect(['no_gain', 'budget_growth', 'inconclusive']).toContain(verdict.verdict);
  // examples/README.md's table shows these figures (npm run examples:table): a fresh run must still give them.
  expect(exampleFigures('tool-loop', verdict)).toEqual(committedFigures('tool-loop'));
  // Agent paths share ⌊B/n⌋ turn by turn: B binds, and the verdict must not say otherwise beside "paths cut by B".
  expect(verdict.invariants.non_binding_arms).toEqual([]);

  const baseline = armTools(run.results, 'baseline_single');
  const candidate = armTools(run.results, 'candidate_single');
  // Same answers at n=1 (paired luck; B never binds there) …
  expect(candidate.passRate).toBe(baseline.passRate);
  expect(baseline.passRate).toBeGreaterThan(0.85);
  expect(run.results.filter((r) => r.n === 1).every((r) => !r.budget_exhausted)).toBe(true);
  // … bought with twice the lookups, duplicates and useless retries the baseline never makes …
  expect(candidate.callsPerSuccess).toBeGreaterThan(1.8 * baseline.callsPerSuccess);
  expect(baseline.duplicatesPerSuccess).toBe(0);
  expect(candidate.duplicatesPerSuccess).toBeGreaterThan(2);
  expect(baseline.retriesPerSuccess).toBe(0);
  expect(candidate.retriesPerSuccess).toBeGreaterThan(0.3);
  // … and tokens: the growth is past the gate, which blocks promotion.
  expect(verdict.same_budget?.tokens_per_success_growth).toBeGreaterThan(1.5);
  // The verdict's attribution names it: tool-call redundancy, routed to a skill update.
  const redundancy = verdict.attribution?.findings.find((f) => f.detector === 'tool_redundancy');
  expect(redundancy).toMatchObject({ flagged: true, cause: 'systemic' });
  // At n=4 each path has B/4: the redundant loops run out of budget first.
  const best = (arm: string) => armTools(run.results, arm);
  expect(best('candidate_best_of_4').passRate).toBeLessThan(best('baseline_best_of_4').passRate);
});
