/**
 * `run --distributed`: the run directory and manifest are made exactly as an embedded run
 * makes them; the inputs go to the database (content-addressed), and each unit becomes one
 * job. Submitting a run id again enqueues only the units that are neither committed nor queued.
 */
import { loadConfig } from '../config/index.js';
import type { SplitName } from '../config/types.js';
import { IsobudgetError } from '../core/errors.js';
import type { Database } from '../db/spec.js';
import { loadPricingFile } from '../config/load-pricing-file.js';
import { buildPriceTable } from '../pricing/build-table.js';
import { createProvider } from '../providers/create-provider.js';
import type { Manifest } from '../ledger/manifest.js';
import { loadRunInputs } from '../runner/inputs.js';
import { openRunDir } from '../runner/open-run-dir.js';
import { planUnits } from '../runner/plan.js';
import { collectCodeFiles } from './code-files.js';
import { UNIT_QUEUE, type JobQueue, type UnitJob } from './jobs.js';
import { getRun, insertRun, insertUnits, openUnits, putInput, type StoredInputs } from './run-store.js';

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
      location: { file: config.configPath, key: 'sequential' }, hint: 'remove the sequential: block, or run without --distributed',
    });
  }
  const prices = buildPriceTable({ config: config.pricing, file: options.pricingFile === undefined ? undefined : { path: options.pricingFile, prices: loadPricingFile(options.pricingFile) } });
  const existing = options.runId === undefined ? undefined : await getRun(db, options.runId);
  const split = options.split ?? (existing?.split as SplitName | undefined) ?? (config.datasets.val ? 'val' : 'test');
  const inputs = await loadRunInputs(config, split, options.allowOverlap ?? existing?.manifest.allow_overlap ?? false);
  if (existing) {
    if (existing.config_hash !== inputs.configHash) {
      throw new IsobudgetError('resume_mismatch', `run ${existing.run_id} in the database was submitted with another config (config hash differs)`, { location: { file: config.configPath }, hint: 'submit with the same experiment.yaml and skill files, or pick another --run-id' });
    }
    return { runId: existing.run_id, runDir: `${options.outDir}/${existing.run_id}`, manifest: existing.manifest, ...(await enqueueOpen(options, existing.run_id, existing.lease_seconds)) };
  }
  const codeFiles = collectCodeFiles(config, options.root);
  const units = planUnits({ split: inputs.split, cases: inputs.cases, regressionCases: inputs.regressionCases, bestOfN: config.budget.bestOfN, epochs: config.epochs });
  const provider = createProvider({ protocol: config.provider.protocol, baseUrl: config.provider.baseUrl, apiKey: undefined, apiKeyEnv: config.provider.apiKeyEnv, timeoutMs: config.provider.timeoutMs, headers: config.provider.headers }, { simSeed: config.seed });
  const opened = openRunDir({ inputs, provider, outDir: options.outDir, ...(options.runId === undefined ? {} : { runId: options.runId }), prices }, units);
  await provider.close?.();
  const datasets: Record<string, string> = {};
  datasets[inputs.split] = await putInput(db, 'dataset', inputs.cases);
  if (inputs.regressionCases.length > 0) datasets['regression'] = await putInput(db, 'dataset', inputs.regressionCases);
  const stored: StoredInputs = { root: options.root, config: await putInput(db, 'config', opened.manifest.config), datasets, code_files: codeFiles };
  await insertRun(db, opened.manifest, stored, options.leaseSeconds);
  await insertUnits(db, opened.manifest.run_id, units);
  return { runId: opened.manifest.run_id, runDir: opened.paths.dir, manifest: opened.manifest, ...(await enqueueOpen(options, opened.manifest.run_id, options.leaseSeconds)) };
}

/** One job per unit that is neither committed nor waiting in the queue. */
async function enqueueOpen(options: SubmitOptions, runId: string, leaseSeconds: number): Promise<{ enqueued: number; committed: number }> {
  const { db, queue } = options;
  const open = await openUnits(db, runId);
  const live = new Set((await db.query<{ unit_key: string }>(`SELECT data->>'unit_key' AS unit_key FROM ${queue.schema}.job WHERE name = $1 AND data->>'run_id' = $2 AND state < 'completed'`, [UNIT_QUEUE, runId])).rows.map((r) => r.unit_key));
  const jobs = open.filter((u) => !live.has(u.unit_key)).map((u) => ({
    name: UNIT_QUEUE,
    data: { run_id: runId, unit_key: u.unit_key } satisfies UnitJob,
    expireInSeconds: leaseSeconds,
    retryLimit: options.retryLimit ?? 3,
    retryDelay: 0,
  }));
  for (let i = 0; i < jobs.length; i += 1000) await queue.boss.insert(jobs.slice(i, i + 1000));
  const total = (await db.query<{ n: number }>('SELECT count(*)::int AS n FROM units WHERE run_id = $1', [runId])).rows[0]?.n ?? 0;
  return { enqueued: jobs.length, committed: total - open.length };
}
