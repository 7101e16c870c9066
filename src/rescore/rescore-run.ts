/**
 * `rescore`: a new run directory made from a recorded run — the same outputs and calls (the
 * ledger copied, its run id rewritten, the source named in the manifest's `rescored_from`),
 * a new scorer applied to every path and the selection made again where it needs no model
 * call. Without `allowCalls` nothing reaches a provider: scorers and selectors get a model
 * access that refuses; with it, judge calls are made and budgeted like a run (rescore-calls.ts).
 * The cases come from the dataset files the run recorded, checked against their hashes.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadRun } from '../analysis/load-run.js';
import type { ScorerConfig, SelectorConfig } from '../config/types.js';
import type { EvalCase } from '../core/case.js';
import { IsobudgetError } from '../core/errors.js';
import { sha256, stableStringify } from '../core/hash.js';
import { fieldsOf, loadDatasetFile } from '../datasets/index.js';
import type { Manifest } from '../ledger/manifest.js';
import { ledgerHashes } from '../ledger/ledger-hashes.js';
import { runPaths, writeJsonAtomic } from '../ledger/run-dir.js';
import type { ResultRecord } from '../ledger/records.js';
import { createSelector } from '../runner/selectors/index.js';
import { createScorer } from '../scorers/index.js';
import { TOOL_VERSION } from '../version.js';
import type { CallRecord } from '../ledger/records.js';
import { readJsonl } from '../ledger/jsonl-reader.js';
import { openJudgeCalls } from './rescore-calls.js';
import { rescoreResult } from './rescore-result.js';

export interface RescoreOptions {
  sourceDir: string;
  /** Parent of the new run directory. */
  outDir: string;
  runId: string;
  scorer: ScorerConfig;
  selector: SelectorConfig;
  /** Where the scorer came from, for the manifest's event: `the run's own`, a file. */
  scorerSource: string;
  signal: AbortSignal;
  /** `--allow-calls`: judge scorers call a model through the run's provider config. */
  allowCalls?: boolean;
  env?: NodeJS.ProcessEnv;
}

export interface RescoreOutcome {
  runDir: string;
  runId: string;
  results: number;
  /** Model calls the rescore made (judge), 0 without --allow-calls. */
  newCalls: number;
  /** Tokens those calls billed (tokens). */
  newTokens: number;
}

/** Scorers and selectors that would call a model: a rescore without --allow-calls refuses them. */
export function needsModelCalls(scorer: ScorerConfig, selector: SelectorConfig): string | undefined {
  if (scorer.type === 'judge') return 'the scorer is a judge';
  if (selector.type === 'verifier' && selector.scorer?.type === 'judge') return 'the verifier selector\'s scorer is a judge';
  return undefined;
}

export async function rescoreRun(options: RescoreOptions): Promise<RescoreOutcome> {
  const source = loadRun(options.sourceDir);
  const manifest = source.manifest;
  if (manifest.status === 'running') throw new IsobudgetError('usage', `rescore: run ${manifest.run_id} is still running (or was killed): finish it with \`isobudget run --resume ${options.sourceDir}\` first`);
  // A run whose ledgers no longer match each other (or their recorded hashes) is not rescored into a clean-looking one.
  if (source.integrity !== undefined) throw new IsobudgetError('ledger_integrity', `rescore: run ${manifest.run_id}'s ledgers do not agree: ${source.integrity}`, { hint: 'a run edited after it finished cannot be rescored; start a new run' });
  const cases = await recordedCases(manifest);
  const scorer = createScorer(options.scorer);
  // A judge selector read the outputs, not the scores: its recorded choice stands.
  const selector = options.selector.type === 'judge' ? undefined : createSelector(options.selector, scorer);
  const dir = join(options.outDir, options.runId);
  if (existsSync(dir)) throw new IsobudgetError('usage', `rescore: ${dir} already exists`, { hint: 'choose another --run-id' });
  const from = runPaths(options.sourceDir);
  const to = runPaths(dir);
  const calling = options.allowCalls === true && needsModelCalls(options.scorer, options.selector) !== undefined;
  const config = { ...manifest.config, scorer: options.scorer, selector: options.selector };
  // The source's judge calls measured the old scorer: a judge that runs again replaces them.
  const sourceCalls = existsSync(from.calls) ? readJsonl<CallRecord>(from.calls).records : [];
  const kept = calling ? sourceCalls.filter((c) => c.role !== 'judge') : sourceCalls;
  const byUnit = (c: { split: string; arm: string; epoch: number; case_id: string }): string => `${c.split}|${c.arm}|${c.epoch}|${c.case_id}`;
  const group = (calls: readonly CallRecord[]): Map<string, CallRecord[]> => {
    const map = new Map<string, CallRecord[]>();
    for (const c of calls) map.set(byUnit(c), [...(map.get(byUnit(c)) ?? []), c]);
    return map;
  };
  const keptByUnit = group(kept);
  const droppedByUnit = group(sourceCalls.filter((c) => !kept.includes(c)));
  const results: ResultRecord[] = [];
  const resolveCase = (result: ResultRecord): EvalCase => {
    const evalCase = cases.get(`${result.split}|${result.case_id}`);
    if (evalCase === undefined) throw new IsobudgetError('usage', `rescore: case ${result.case_id} of split ${result.split} is not in the recorded dataset`);
    return evalCase;
  };
  if (!calling) for (const result of source.results) results.push(await rescoreResult(result, resolveCase(result), options.runId, { scorer, selector, signal: options.signal }));
  else for (const result of source.results) resolveCase(result);
  mkdirSync(dir, { recursive: true });
  if (calling) writeLedger(to.calls, kept, options.runId);
  else copyLedger(from.calls, to.calls, options.runId);
  copyLedger(from.interrupted, to.interrupted, options.runId);
  let counts = manifest.calls;
  let newCalls = 0;
  let newTokens = 0;
  if (calling) {
    const session = openJudgeCalls({ manifest, config, runId: options.runId, files: to, keptCalls: kept.length, env: options.env ?? process.env, signal: options.signal });
    // Units in parallel lanes, as a run does; the run's call pool (concurrency) bounds the requests.
    let next = 0;
    const lane = async (): Promise<void> => {
      for (let i = next++; i < source.results.length; i = next++) {
        const result = source.results[i] as ResultRecord;
        const { models, context } = session.unit(result, resolveCase(result), keptByUnit.get(byUnit(result)) ?? []);
        const rescored = await rescoreResult(result, resolveCase(result), options.runId, { scorer, selector, signal: options.signal, models });
        session.commit(context, rescored, droppedByUnit.get(byUnit(result)) ?? []);
        newCalls += context.calls.length;
        newTokens += context.calls.reduce((sum, c) => sum + (c.booked_tokens ?? 0), 0);
      }
    };
    let stopped: unknown;
    try {
      await Promise.all(Array.from({ length: Math.max(1, Math.min(source.results.length, config.concurrency)) }, lane));
    } catch (error) {
      stopped = error;
    } finally {
      counts = session.close();
    }
    stopped ??= session.stopped();
    if (stopped !== undefined) {
      // Calls were made and may have been billed: the run stays, interrupted, with what it committed.
      const now = new Date().toISOString();
      const why = stopped instanceof Error ? stopped.message : String(stopped);
      writeJsonAtomic(to.manifest, { ...manifest, run_id: options.runId, created_at: now, updated_at: now, status: 'interrupted', config, rescored_from: { run_id: manifest.run_id, dir: options.sourceDir, scorer: manifest.scorer.name }, ...(counts === undefined ? {} : { calls: counts }), events: [...manifest.events, { ts: now, message: `rescore with --allow-calls stopped after ${newCalls} judge calls: ${why}` }] } satisfies Manifest);
      throw stopped;
    }
  } else writeFileSync(to.results, results.map((r) => `${JSON.stringify(r)}\n`).join(''));
  const now = new Date().toISOString();
  const rescored: Manifest = {
    ...manifest,
    run_id: options.runId,
    created_at: now,
    updated_at: now,
    config,
    // Another scorer is another measurement: runs are compared by hash, so it differs.
    config_hash: sha256(stableStringify({ source: manifest.config_hash, scorer: options.scorer, selector: options.selector })),
    scorer: { name: options.scorer.type, version: TOOL_VERSION },
    selector: options.selector.type,
    rescored_from: { run_id: manifest.run_id, dir: options.sourceDir, scorer: manifest.scorer.name },
    // The copied calls and the new results are this run's ledgers: their hashes are what readers check.
    ...(counts === undefined ? {} : { calls: counts }),
    ledger_sha256: ledgerHashes(to),
    events: [...manifest.events, { ts: now, message: `rescored from run ${manifest.run_id} with ${options.scorerSource} (${options.scorer.type}): the recorded outputs and calls, ${calling ? `the judge run again with --allow-calls: ${newCalls} new calls, ${newTokens} tokens` : '0 new tokens'}` }],
  };
  writeJsonAtomic(to.manifest, rescored);
  return { runDir: dir, runId: options.runId, results: source.results.length, newCalls, newTokens };
}

/** Every case of the run's datasets, keyed `split|id`; a dataset whose bytes changed is refused. */
async function recordedCases(manifest: Manifest): Promise<Map<string, EvalCase>> {
  const cases = new Map<string, EvalCase>();
  for (const [split, recorded] of Object.entries(manifest.datasets)) {
    const dataset = await loadDatasetFile(recorded.path, { configKey: `datasets.${split}`, ...fieldsOf(manifest.config) });
    if (dataset.sha256 !== recorded.sha256) {
      throw new IsobudgetError('usage', `rescore: ${recorded.path} changed since run ${manifest.run_id} (sha256 ${dataset.sha256.slice(0, 12)}…, recorded ${recorded.sha256.slice(0, 12)}…)`, { hint: 'rescoring needs the expected answers the run was made against: restore the file, or start a new run' });
    }
    for (const evalCase of dataset.cases) cases.set(`${split}|${evalCase.id}`, evalCase);
  }
  return cases;
}

/** Call records under the new run id (everything else as billed). */
function writeLedger(to: string, calls: readonly CallRecord[], runId: string): void {
  writeFileSync(to, calls.map((call) => `${JSON.stringify({ ...call, run_id: runId })}\n`).join(''));
}

/** The source's call records with the new run id (everything else as billed). */
function copyLedger(from: string, to: string, runId: string): void {
  if (!existsSync(from)) return;
  const lines = readFileSync(from, 'utf8').split('\n').filter((line) => line.trim() !== '');
  writeFileSync(to, lines.map((line) => `${JSON.stringify({ ...(JSON.parse(line) as object), run_id: runId })}\n`).join(''));
}
