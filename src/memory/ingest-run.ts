/** `memory ingest RUN_DIR`: read a finished run, plan with the pure rules, commit atomically. */
import { existsSync } from 'node:fs';
import { IsobudgetError } from '../core/errors.js';
import type { Manifest } from '../ledger/manifest.js';
import { readJsonFile, runPaths } from '../ledger/run-dir.js';
import type { VerdictRecord } from '../verdict/record.js';
import { verdictForRun } from '../verdict/verdict-for-run.js';
import { applyLedgerIntegrity } from '../verdict/integrity-rule.js';
import { ledgerIntegrityOfDir } from '../analysis/load-run.js';
import { planIngest, type IngestPlan } from './ingest-rules.js';
import { factsFromRun, type RunFacts } from './run-facts.js';
import { storePolicy } from './store/open.js';
import type { TestSplitUse } from './store/records.js';
import { withConflictRetry, type MemoryStore } from './store/spec.js';

export interface LoadedRun {
  dir: string;
  manifest: Manifest;
  verdict: VerdictRecord;
}

/** The run's manifest and verdict (decided now if verdict.json is missing). Refuses unfinished runs. */
export function loadRunForMemory(dir: string): LoadedRun {
  const paths = runPaths(dir);
  const manifest = readJsonFile<Manifest>(paths.manifest, 'manifest.json');
  if (manifest.status !== 'complete') {
    throw new IsobudgetError('run_incomplete', `run ${manifest.run_id} is ${manifest.status}: only finished runs become memory`, { location: { file: paths.manifest }, hint: `finish it first: isobudget run --resume ${dir}` });
  }
  // verdict.json was decided on the ledgers as they were: an edit since makes the run invalid.
  const verdict = existsSync(paths.verdict) ? applyLedgerIntegrity(readJsonFile<VerdictRecord>(paths.verdict, 'verdict.json'), ledgerIntegrityOfDir(dir, manifest)) : verdictForRun(dir);
  return { dir, manifest, verdict };
}

/** A test-split run, counted wherever it came from (gate or a manual `run --split test`). */
export function testUseOf(run: LoadedRun, gateId: string | null, now: Date): TestSplitUse | undefined {
  const test = run.manifest.datasets['test'];
  if (run.manifest.split !== 'test' || !test) return undefined;
  return { dataset_sha256: test.sha256, dataset_path: test.path, candidate_id: run.verdict.candidate_id, gate_id: gateId, run_id: run.manifest.run_id, used_at: now.toISOString() };
}

export interface IngestResult extends IngestPlan {
  facts: RunFacts;
}

export async function ingestRun(run: LoadedRun, store: MemoryStore, now: Date, gateId: string | null = null): Promise<IngestResult> {
  const imported = run.manifest.imported;
  if (imported !== undefined) {
    // Every memory record carries the B its evidence was judged at (DESIGN §7); an import has
    // none, and a record with an invented B would compare unlike with like later.
    throw new IsobudgetError('memory_no_budget', `run ${run.manifest.run_id} was imported from ${imported.tool}, which runs under no token budget B: a memory record needs the B its evidence was judged at, so it is not remembered`, {
      location: { file: runPaths(run.dir).manifest, key: 'imported' },
      hint: `analyze, report, compare and export read it; to remember this comparison, run it with \`isobudget run\` under a budget`,
    });
  }
  const facts = factsFromRun(run.verdict, run.manifest);
  const policy = await storePolicy(store);
  const use = testUseOf(run, gateId, now);
  return withConflictRetry(async () => {
    const records = await store.listRecords();
    const reviewIds = (await store.listReviewItems()).map((item) => item.review_id);
    const plan = planIngest(facts, { records, reviewIds }, policy, now);
    await store.commit({
      records: plan.writes,
      reviewItems: plan.reviewItems.map((item) => ({ item, expected: null })),
      ...(use ? { testUses: [use] } : {}),
    });
    return { ...plan, facts };
  });
}

export async function ingestRunDir(dir: string, store: MemoryStore, now: Date): Promise<IngestResult> {
  return ingestRun(loadRunForMemory(dir), store, now);
}
