/**
 * Hand-made verdicts, runs and stores for the memory, gate and review tests (not part of the
 * build). A verdict here carries only what memory and the gate read; tests that need real
 * numbers run the examples instead.
 */
import { cpSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ExperimentConfig } from '../../config/types.js';
import type { Manifest } from '../../ledger/manifest.js';
import type { VerdictName, VerdictRecord } from '../../verdict/record.js';
import type { LoadedRun } from '../ingest-run.js';
import { SqliteMemoryStore } from '../store/sqlite-store.js';

export const T0 = new Date('2026-06-01T00:00:00.000Z');
export const days = (n: number, from = T0): Date => new Date(from.getTime() + n * 86_400_000);

export interface FakeVerdictSpec {
  run_id: string;
  verdict: VerdictName;
  split?: string;
  candidate_id?: string;
  baseline_id?: string;
  delta?: number;
  ci95?: [number, number];
  tokensGrowth?: number | null;
  p95Ratio?: number | null;
  regressionWorse?: boolean;
  noRegressionSet?: boolean;
  bestOfN?: { n: number; delta: number; bestofnRatio: number };
  at?: Date;
  /** sha256 the manifest records for the test split. */
  testSha?: string;
}

export function fakeVerdict(spec: FakeVerdictSpec): VerdictRecord {
  const delta = spec.delta ?? (spec.verdict === 'real_evolution' ? 0.2 : 0);
  const ci95 = spec.ci95 ?? [delta - 0.05, delta + 0.05];
  const on = spec.bestOfN ?? { n: 8, delta: delta + 0.02, bestofnRatio: 1.1 };
  const bestofn = { n: on.n, cases: 200, baseline_selected: 0.6, candidate_selected: 0.6 + on.delta, delta: on.delta, ci95: [on.delta - 0.05, on.delta + 0.05] as const, baseline_pass_at_n: 0.7, candidate_pass_at_n: 0.7 + on.delta, difference_in_differences: on.delta - delta, did_ci95: null, total_tokens_ratio: 1.02, bestofn_ratio: on.bestofnRatio };
  const record = {
    schema_version: 1, run_id: spec.run_id, experiment: 'date-parser', split: spec.split ?? 'val',
    candidate_id: spec.candidate_id ?? 'skill-date-parser-v3', baseline_id: spec.baseline_id ?? 'skill-date-parser-v2',
    same_budget: {
      budget: 3000, n: 1, cases: 200, baseline_pass: 0.6, candidate_pass: 0.6 + delta, delta, ci95, ci_percentile: ci95, confidence: 0.95,
      se_bootstrap: 0.02, se_paired: 0.02, se_clustered: null, mcnemar_p: 0.001, baseline_pass_wilson: [0.55, 0.65], candidate_pass_wilson: [0.75, 0.85],
      baseline_tokens_per_success: 500, candidate_tokens_per_success: spec.tokensGrowth === null ? null : 500 * (spec.tokensGrowth ?? 0.9),
      tokens_per_success_growth: spec.tokensGrowth === undefined ? 0.9 : spec.tokensGrowth, tokens_per_success_growth_ci95: null, total_tokens_ratio: 1, p95_latency_ratio: spec.p95Ratio === undefined ? 1.02 : spec.p95Ratio,
    },
    bestofn_off: { n: 1, delta },
    bestofn_on: bestofn,
    bestofn: [bestofn],
    categories: [],
    regression_set: spec.noRegressionSet ? null : { cases: 40, baseline_pass: 1, candidate_pass: spec.regressionWorse ? 0.7 : 1, delta: spec.regressionWorse ? -0.3 : 0, ci95: spec.regressionWorse ? [-0.45, -0.15] : [0, 0], worse: spec.regressionWorse === true, lost_cases: spec.regressionWorse ? ['r1', 'r2'] : [] },
    arms: [], invariants: { over_budget_units: 0, missing_arms: [], mismatched_arms: [], calls_missing_usage: 0, units_missing_tokens: 0, non_binding_arms: [] },
    power: null, checks: [],
    gates: { min_same_budget_gain: 0.08, max_token_growth_ratio: 1.15, max_latency_growth_ratio: 1.3, bootstrap_rounds: 2000, confidence: 0.95 },
    method: { pairing: 'case', interval: 'bca', also: 'percentile', rounds: 2000, seed: 7, prng: 'xoshiro128**', category_adjustment: 'bonferroni', pass_at_k: 'unbiased (Chen et al. 2021)' },
    verdict: spec.verdict, reason: `${spec.verdict} (synthetic)`, created_at: (spec.at ?? T0).toISOString(),
  };
  return record as unknown as VerdictRecord;
}

/** A finished run whose manifest carries `config` (or a minimal date-parser-like one). */
export function fakeRun(spec: FakeVerdictSpec, config?: ExperimentConfig): LoadedRun {
  const verdict = fakeVerdict(spec);
  const minimal = {
    experiment: 'date-parser', configPath: '/tmp/experiment.yaml',
    provider: { protocol: 'sim', baseUrl: 'sim://local', apiKeyEnv: undefined, preset: 'sim', timeoutMs: 1000, headers: {} },
    budget: { totalTokensPerCase: 3000, perCaseMaxTokens: 1024, bestOfN: [1, 8], includeJudge: false },
    retries: { maxAttempts: 3, initialDelayMs: 1, maxDelayMs: 1 },
    variants: {
      baseline: { id: verdict.baseline_id, model: 'sim-small', systemPrompt: '---\nname: date-parser\ndescription: d\nversion: 2\n---\nRules v2\n', skillFile: '/tmp/v2.md', temperature: 0.2 },
      candidate: { id: verdict.candidate_id, model: 'sim-small', systemPrompt: '---\nname: date-parser\ndescription: d\nversion: 3\n---\nRules v2\nPlus two-digit years\n', skillFile: '/tmp/v3.md', temperature: 0.2 },
    },
  };
  const manifest = {
    schema_version: 1, run_id: spec.run_id, experiment: 'date-parser', status: 'complete', split: spec.split ?? 'val',
    config: config ?? minimal,
    datasets: { test: { path: '/tmp/test.jsonl', sha256: spec.testSha ?? 'test-sha-1', cases: 200 } },
  };
  return { dir: `/tmp/runs/${spec.run_id}`, manifest: manifest as unknown as Manifest, verdict };
}

export function tempStore(): { store: SqliteMemoryStore; dir: string; file: string } {
  const dir = mkdtempSync(join(tmpdir(), 'isobudget-memory-'));
  const file = join(dir, 'memory.sqlite');
  return { store: new SqliteMemoryStore(file), dir, file };
}

/** A private copy of a shipped example, so tests can edit its skills. */
export function copyExample(name: string): { dir: string; configPath: string } {
  const dir = mkdtempSync(join(tmpdir(), `isobudget-${name}-`));
  cpSync(join(import.meta.dirname, '..', '..', '..', 'examples', name), dir, { recursive: true });
  return { dir, configPath: join(dir, 'experiment.yaml') };
}
