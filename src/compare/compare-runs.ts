/**
 * What moved between two runs on the same cases, pure: for every arm, the product pass rate
 * (pass@1 at n=1, selected@N at n=N) paired by case across the runs with its bootstrap CI and
 * exact McNemar p, pass@1 per path, pass@N, tokens per case and per success, p95 latency, and
 * the cases that flipped; plus each run's verdict and which settings changed.
 */
import type { ArmMetrics } from '../analysis/arm-metrics.js';
import { caseTable, type ArmCases } from '../analysis/case-table.js';
import { comparePasses, compareTokens, type BootstrapSettings, type PassComparison, type TokenComparison } from '../analysis/compare.js';
import type { Manifest } from '../ledger/manifest.js';
import type { ResultRecord } from '../ledger/records.js';
import type { VerdictRecord } from '../verdict/record.js';
import { configChanges, type ConfigChange } from './config-diff.js';
import { checkDatasets, type DatasetCheck } from './dataset-check.js';

export interface RunSide {
  dir: string;
  manifest: Manifest;
  results: readonly ResultRecord[];
  verdict: VerdictRecord;
}

export interface ArmMove {
  arm: string;
  n: number;
  a: ArmMetrics | undefined;
  b: ArmMetrics | undefined;
  /** Cases present in this arm of both runs. */
  sharedCases: number;
  /** Product pass rate, run B − run A, paired by case. */
  pass: PassComparison | undefined;
  /** Tokens, run B over run A, over cases with known usage in both. */
  tokens: TokenComparison | undefined;
  nowPassing: string[];
  nowFailing: string[];
}

export interface RunComparison {
  a: { dir: string; runId: string; verdict: VerdictRecord };
  b: { dir: string; runId: string; verdict: VerdictRecord };
  datasets: DatasetCheck;
  /** Compared although the datasets differ (on the cases both runs have). */
  forced: boolean;
  arms: ArmMove[];
  config: ConfigChange[];
}

export function compareRuns(a: RunSide, b: RunSide, options: { forced: boolean }): RunComparison {
  const settings: BootstrapSettings = { rounds: b.verdict.gates.bootstrap_rounds, seed: b.verdict.method.seed, confidence: b.verdict.gates.confidence };
  const tableA = caseTable(a.results.filter((r) => r.split !== 'regression'));
  const tableB = caseTable(b.results.filter((r) => r.split !== 'regression'));
  const names = [...new Set([...tableA.keys(), ...tableB.keys()])];
  const metrics = (side: RunSide, arm: string): ArmMetrics | undefined => side.verdict.arms.find((m) => m.arm === arm);
  const arms = names
    .map((arm): ArmMove => {
      const x: ArmCases = tableA.get(arm) ?? new Map();
      const y: ArmCases = tableB.get(arm) ?? new Map();
      const shared = [...x.keys()].filter((id) => y.has(id)).sort();
      const flips = (from: number, to: number): string[] => shared.filter((id) => x.get(id)?.pass === from && y.get(id)?.pass === to);
      return {
        arm,
        n: metrics(b, arm)?.n ?? metrics(a, arm)?.n ?? 1,
        a: metrics(a, arm),
        b: metrics(b, arm),
        sharedCases: shared.length,
        pass: comparePasses(x, y, [`${arm} (run A)`, `${arm} (run B)`], settings),
        tokens: compareTokens(x, y, settings),
        nowPassing: flips(0, 1),
        nowFailing: flips(1, 0),
      };
    })
    .sort((p, q) => p.n - q.n || (p.arm.startsWith('baseline') ? -1 : 1) - (q.arm.startsWith('baseline') ? -1 : 1));
  return {
    a: { dir: a.dir, runId: a.manifest.run_id, verdict: a.verdict },
    b: { dir: b.dir, runId: b.manifest.run_id, verdict: b.verdict },
    datasets: checkDatasets(a.manifest, b.manifest),
    forced: options.forced,
    arms,
    config: configChanges(a.manifest.config, b.manifest.config),
  };
}
