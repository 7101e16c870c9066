/**
 * `run --distributed`: the run directory and manifest are made exactly as an embedded run
 * makes them; the inputs go to the database (content-addressed), and each unit becomes one
 * job, all in one transaction. Submitting a run id again adds any missing unit and enqueues
 * only the units that are neither committed nor queued.
 */
import { existsSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { loadConfig } from '../config/index.js';
import type { SplitName } from '../config/types.js';
import { IsobudgetError } from '../core/errors.js';
import type { Database } from '../db/spec.js';
import { inTransaction } from '../db/batch-insert.js';
import { loadPricingFile } from '../config/load-pricing-file.js';
import { buildPriceTable } from '../pricing/build-table.js';
import { createProvider } from '../providers/create-provider.js';
import type { Manifest } from '../ledger/manifest.js';
import { loadRunInputs } from '../runner/inputs.js';
import { openRunDir } from '../runner/open-run-dir.js';
import { planUnits } from '../runner/plan.js';
import { collectCodeFiles } from './code-files.js';
import { enqueueOpen } from './enqueue.js';
import type { JobQueue } from './jobs.js';
import { getRun, insertRun, insertUnits, putInput, type StoredInputs } from './run-store.js';

export interface SubmitOptions {
  db: Database;
  queue: JobQueue;
  configPath: string;
  /** The project root: code files and config paths are stored relative to it. */
  root: string;
  outDir: string;
  split?: SplitName;
  runId?: string;
  allowOverlap?: boolean;
  pricingFile?: string;
  /** A unit's lease (s): a worker silent this long is presumed dead and its unit retried. */
  leaseSeconds: number;
  /** Attempts after the first (a dead worker's, a failed unit's). */
  retryLimit?: number;
  /** Deaths of workers holding one unit that make it `failed` (default 3); on a re-submit, replaces the run's. */
  maxWorkerDeaths?: number;
}

export interface Submitted {
  runId: string;
  runDir: string;
  manifest: Manifest;
  /** Units enqueued by this submission. */
  enqueued: number;
  /** Units already committed before it. */
  committed: number;
}

export async function submitRun(options: SubmitOptions): Promise<Submitted> {
  const { db } = options;
  const config = await loadConfig(options.configPath);
  if (config.sequential !== undefined) {
    throw new IsobudgetError('usage', 'run --distributed: sequential screening decides case by case in one process; it does not run distributed', {
      location: { file: config.configPath, key: 'sequential' },
      hint: 'remove the sequential: block, or run without --distributed',
    });
  }
  const prices = buildPriceTable({
    config: config.pricing,
    file: options.pricingFile === undefined ? undefined : { path: options.pricingFile, prices: loadPricingFile(options.pricingFile) },
  });
  const existing = options.runId === undefined ? undefined : await getRun(db, options.runId);
  const split = options.split ?? (existing?.split as SplitName | undefined) ?? (config.datasets.val ? 'val' : 'test');
  const inputs = await loadRunInputs(config, split, options.allowOverlap ?? existing?.manifest.allow_overlap ?? false);
  if (existing) {
    if (existing.config_hash !== inputs.configHash) {
      throw new IsobudgetError('resume_mismatch', `run ${existing.run_id} in the database was submitted with another config (config hash differs)`, {
        location: { file: config.configPath },
        hint: 'submit with the same experiment.yaml and skill files, or pick another --run-id',
      });
    }
    const counts = await inTransaction(db, async (client) => {
      if (options.maxWorkerDeaths !== undefined) await client.query('UPDATE runs SET max_worker_deaths = $2 WHERE run_id = $1', [existing.run_id, options.maxWorkerDeaths]);
      // A run row without all its units (submitted by an older build): the missing ones are added.
      await insertUnits(
        client,
        existing.run_id,
        planUnits({ split: inputs.split, cases: inputs.cases, regressionCases: inputs.regressionCases, bestOfN: config.budget.bestOfN, epochs: config.epochs }),
      );
      return enqueueOpen(client, options.queue, existing.run_id, { leaseSeconds: existing.lease_seconds, retryLimit: options.retryLimit, states: ['queued', 'failed'] });
    });
    return { runId: existing.run_id, runDir: `${options.outDir}/${existing.run_id}`, manifest: existing.manifest, ...counts };
  }
  const codeFiles = collectCodeFiles(config, options.root);
  const units = planUnits({
    split: inputs.split,
    cases: inputs.cases,
    regressionCases: inputs.regressionCases,
    bestOfN: config.budget.bestOfN,
    epochs: config.epochs,
  });
  const provider = createProvider(
    {
      protocol: config.provider.protocol,
      baseUrl: config.provider.baseUrl,
      apiKey: undefined,
      apiKeyEnv: config.provider.apiKeyEnv,
      timeoutMs: config.provider.timeoutMs,
      headers: config.provider.headers,
    },
    { simSeed: config.seed },
  );
  if (options.runId !== undefined) clearCutSubmission(join(options.outDir, options.runId), inputs.configHash);
  const opened = openRunDir({ inputs, provider, outDir: options.outDir, ...(options.runId === undefined ? {} : { runId: options.runId }), prices }, units);
  await provider.close?.();
  const runId = opened.manifest.run_id;
  // One transaction: the run row, its inputs, every unit and every unit's job. A submitter cut
  // anywhere before COMMIT leaves nothing; a re-submit of the id starts over.
  const counts = await inTransaction(db, async (client) => {
    const datasets: Record<string, string> = {};
    datasets[inputs.split] = await putInput(client, 'dataset', inputs.cases);
    if (inputs.regressionCases.length > 0) datasets['regression'] = await putInput(client, 'dataset', inputs.regressionCases);
    const stored: StoredInputs = { root: options.root, config: await putInput(client, 'config', opened.manifest.config), datasets, code_files: codeFiles };
    if (!(await insertRun(client, opened.manifest, stored, options.leaseSeconds, options.maxWorkerDeaths))) {
      throw new IsobudgetError('run_exists', `run ${runId} is already in the database (another submitter took this id first)`, {
        hint: `join it: isobudget run EXPERIMENT.yaml --run-id ${runId} --db URL --distributed; or pick another --run-id`,
      });
    }
    await insertUnits(client, runId, units);
    return enqueueOpen(client, options.queue, runId, { leaseSeconds: options.leaseSeconds, retryLimit: options.retryLimit, states: ['queued'] });
  }).catch((error: unknown) => {
    // The run directory of a submission that did not land is not a run (the winner of a race
    // for the id rebuilds its own from the database when the run finishes).
    if (!(error instanceof IsobudgetError && error.code === 'run_exists')) rmSync(opened.paths.dir, { recursive: true, force: true });
    throw error;
  });
  return { runId, runDir: opened.paths.dir, manifest: opened.manifest, ...counts };
}

/**
 * The local folder a cut submission left (its manifest written, the database transaction
 * never committed): removed, so the re-submit of the id can start over. Anything more than
 * that folder (results, another config) is a run, and stays.
 */
function clearCutSubmission(dir: string, configHash: string): void {
  if (!existsSync(dir)) return;
  const files = readdirSync(dir).filter(
    (name) => !['manifest.json', '.space-reserve', 'calls.jsonl', 'results.jsonl', 'call-intents.jsonl'].includes(name) && !name.startsWith('manifest.json.'),
  );
  if (files.length > 0) return;
  for (const name of ['calls.jsonl', 'results.jsonl', 'call-intents.jsonl']) if (existsSync(join(dir, name)) && statSync(join(dir, name)).size > 0) return;
  try {
    const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as { config_hash?: string };
    if (manifest.config_hash !== configHash) return;
  } catch {
    if (existsSync(join(dir, 'manifest.json'))) return;
  }
  rmSync(dir, { recursive: true, force: true });
}
