/**
 * Reads a run's neighbours (the other run directories beside it) for the attribution's
 * history: earlier selections on the same split, and the candidate's earlier rounds.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { AttributionHistory } from '../analysis/attribution/attribute.js';
import type { RoundSummary } from '../analysis/attribution/bestofn-streak.js';
import type { EvalCase } from '../core/case.js';
import type { Manifest } from '../ledger/manifest.js';
import type { VerdictRecord } from './record.js';

export interface HistoryOptions {
  /** Directory holding run directories (default: the run's parent). */
  runsDir?: string;
  /** Category counts of recent production failures (from a feedback file or gateway ledger). */
  productionFailures?: Record<string, number>;
  now?: Date;
}

export function readHistory(runDir: string, manifest: Manifest, current: Pick<VerdictRecord, 'run_id' | 'created_at' | 'candidate_id' | 'same_budget' | 'bestofn'> | undefined, evalCases: readonly Pick<EvalCase, 'category'>[], options: HistoryOptions = {}): AttributionHistory {
  const runsDir = options.runsDir ?? dirname(runDir);
  const splitHash = manifest.datasets[manifest.split]?.sha256;
  const priorRuns: Array<{ runId: string; createdAt: string }> = [];
  const rounds: RoundSummary[] = [];
  for (const name of existsSync(runsDir) ? readdirSync(runsDir) : []) {
    const dir = join(runsDir, name);
    const other = readJson<Manifest>(join(dir, 'manifest.json'));
    if (!other || other.run_id === manifest.run_id) continue;
    if (other.created_at < manifest.created_at && splitHash !== undefined && other.datasets?.[other.split]?.sha256 === splitHash) {
      priorRuns.push({ runId: other.run_id, createdAt: other.created_at });
    }
    const verdict = readJson<VerdictRecord>(join(dir, 'verdict.json'));
    if (verdict && current && verdict.candidate_id === current.candidate_id && verdict.created_at <= (current.created_at ?? '')) rounds.push(round(verdict));
  }
  if (current) rounds.push(round(current));
  const evalCategories: Record<string, number> = {};
  for (const c of evalCases) if (c.category !== undefined) evalCategories[c.category] = (evalCategories[c.category] ?? 0) + 1;
  return {
    drift: { priorRuns, evalCategories, productionFailures: options.productionFailures, now: options.now ?? new Date() },
    rounds,
  };
}

function round(verdict: Pick<VerdictRecord, 'run_id' | 'created_at' | 'same_budget' | 'bestofn'>): RoundSummary {
  return {
    runId: verdict.run_id,
    createdAt: verdict.created_at,
    n1Significant: (verdict.same_budget?.ci95?.[0] ?? 0) > 0,
    nNSignificant: verdict.bestofn.some((b) => (b.ci95?.[0] ?? 0) > 0),
  };
}

function readJson<T>(file: string): T | undefined {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as T;
  } catch {
    return undefined;
  }
}
