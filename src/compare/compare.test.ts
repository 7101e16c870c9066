import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { writeSyntheticRun, type SyntheticRun } from '../report/html/synthetic-run.js';
import { compareRuns, type RunSide } from './compare-runs.js';
import { configChanges } from './config-diff.js';
import { checkDatasets } from './dataset-check.js';
import { renderComparison } from './render-compare.js';

const make = (seed: number): SyntheticRun => writeSyntheticRun({ dir: mkdtempSync(join(tmpdir(), 'isobudget-compare-')), cases: 150, seed, rounds: 200 });
const side = (run: SyntheticRun): RunSide => ({ dir: run.dir, manifest: run.manifest, results: run.results, verdict: run.verdict });

describe('compare runs', () => {
  const a = make(5);
  // Same cases, other outcomes: the candidate's single arm now fails case-00001..00010.
  const b = side(a);
  const flipped = new Set(Array.from({ length: 10 }, (_, i) => `case-${String(i + 1).padStart(5, '0')}`));
  b.results = a.results.map((r) => (r.arm === 'candidate_single' && flipped.has(r.case_id) ? { ...r, passed: false, passed_any: false, passes: 0 } : r));

  test('same dataset hashes → same cases; per arm deltas and the flipped cases', () => {
    const c = compareRuns(side(a), b, { forced: false });
    expect(c.datasets.same).toBe(true);
    expect(c.arms.map((m) => m.arm)).toEqual(['baseline_single', 'candidate_single', 'baseline_best_of_8', 'candidate_best_of_8']);
    const cand = c.arms.find((m) => m.arm === 'candidate_single');
    const wasPassing = a.results.filter((r) => r.arm === 'candidate_single' && flipped.has(r.case_id) && r.passed).map((r) => r.case_id).sort();
    expect(cand?.nowFailing).toEqual(wasPassing);
    expect(cand?.nowPassing).toEqual([]);
    expect(cand?.pass?.delta.value).toBeCloseTo(-wasPassing.length / 150, 12);
    expect(c.arms.find((m) => m.arm === 'baseline_single')?.pass?.delta.value).toBe(0);
    const text = renderComparison(c);
    expect(text).toContain('datasets: same cases');
    expect(text).toContain(`candidate_single: now failing (${wasPassing.length})`);
  });

  test('different dataset hashes are named; settings changes are listed as key paths', () => {
    const other = make(6);
    const check = checkDatasets(a.manifest, { ...other.manifest, datasets: { val: { ...other.manifest.datasets.val!, sha256: 'f'.repeat(64) } } });
    expect(check.same).toBe(false);
    expect(check.differences[0]).toMatchObject({ name: 'val', b: 'f'.repeat(64) });
    expect(configChanges({ budget: { total: 1, n: [1, 8] }, x: 'a' }, { budget: { total: 2, n: [1, 8] }, y: 'b' })).toEqual([
      { path: 'budget.total', a: '1', b: '2' },
      { path: 'x', a: '"a"', b: '(unset)' },
      { path: 'y', a: '(unset)', b: '"b"' },
    ]);
  });
});
