/**
 * `datasets add-failures EVENTS.jsonl --experiment EXPERIMENT.yaml`: plans the new cases
 * (plan-failures.ts), appends them to the experiment's split files, and writes the change as
 * a new dataset version — each file's sha256 before and after, with counts, as a line in the
 * `CHANGELOG` beside it — so run manifests (and eval-drift detection, which counts uses per
 * dataset hash) see a refreshed split. Each file is replaced whole (temp file + rename): a
 * crash leaves the old version or the new one, never half a dataset. No change, no new line.
 */
import { appendFileSync, renameSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { DEFAULTS } from '../../config/defaults.js';
import type { ExperimentConfig, SplitShares } from '../../config/types.js';
import type { EvalCase } from '../../core/case.js';
import { IsobudgetError } from '../../core/errors.js';
import { sha256 } from '../../core/hash.js';
import { MAX_DATA_FILE_BYTES, readInputTextSync } from '../../core/input-file.js';
import { fieldsOf, loadDataset } from '../load.js';
import { formatOf } from '../records.js';
import { parseFailureEvents } from './failure-events.js';
import { planFailures, type FailurePlan, type TargetSplit } from './plan-failures.js';

export interface AddFailuresReport {
  events: number;
  added: Record<TargetSplit, number>;
  sampling: number;
  duplicates: number;
  noExpected: number;
  neverFailed: number;
  files: Array<{ split: TargetSplit; path: string; added: number; sha256_before: string; sha256_after: string }>;
  changelogs: string[];
}

const SPLITS: readonly TargetSplit[] = ['train', 'val', 'test'];

export function refreshShares(config: ExperimentConfig): SplitShares {
  return config.datasets.refresh ?? { ...DEFAULTS.refresh };
}

/** Every case of every configured split (regression too): what a new case must not duplicate. */
export async function existingCases(config: ExperimentConfig): Promise<EvalCase[]> {
  const all: EvalCase[] = [];
  for (const split of ['train', 'val', 'test', 'regression'] as const) {
    const file = config.datasets[split];
    if (file !== undefined) all.push(...(await loadDataset(file, { split, configKey: `datasets.${split}`, configFile: config.configPath, ...fieldsOf(config) })));
  }
  return all;
}

export async function planFromFile(config: ExperimentConfig, eventsFile: string): Promise<{ plan: FailurePlan; events: number }> {
  const events = parseFailureEvents(readText(eventsFile, 'events file'), eventsFile);
  const plan = planFailures({ events, existing: await existingCases(config), shares: refreshShares(config), judged: config.scorer.type === 'judge', source: basename(eventsFile) });
  return { plan, events: events.length };
}

export async function addFailures(config: ExperimentConfig, eventsFile: string, options: { dryRun?: boolean; now?: Date } = {}): Promise<AddFailuresReport> {
  const shares = refreshShares(config);
  for (const split of SPLITS) {
    if (shares[split] > 0 && config.datasets[split] === undefined) {
      throw new IsobudgetError('refresh_split_missing', `datasets.refresh sends ${shares[split]} of new cases to ${split}, but datasets.${split} is not set`, {
        location: { file: config.configPath, key: `datasets.${split}` },
        hint: `add \`${split}: path/to/${split}.jsonl\` under \`datasets:\`, or set \`datasets.refresh.${split}: 0\``,
      });
    }
  }
  for (const split of SPLITS) {
    const file = config.datasets[split];
    // New rows are appended as JSONL in isobudget's names: a CSV, a gzip or renamed fields would be corrupted.
    if (shares[split] > 0 && file !== undefined && (formatOf(file).format !== 'jsonl' || formatOf(file).gzip || config.datasets.fields !== undefined)) {
      throw new IsobudgetError('refresh_split_format', `datasets.${split} is ${config.datasets.fields !== undefined ? 'read through datasets.fields' : 'not plain JSONL'}: add-failures appends JSONL rows with id, input and expected`, {
        location: { file: config.configPath, key: `datasets.${split}` },
        hint: 'point the splits at plain .jsonl files in isobudget\'s names (isobudget init --from-dataset FILE writes them), or set its datasets.refresh share to 0',
      });
    }
  }
  const { plan, events } = await planFromFile(config, eventsFile);
  const report: AddFailuresReport = {
    events, added: { train: plan.rows.train.length, val: plan.rows.val.length, test: plan.rows.test.length },
    sampling: plan.sampling, duplicates: plan.duplicates, noExpected: plan.noExpected, neverFailed: plan.neverFailed, files: [], changelogs: [],
  };
  if (options.dryRun) return report;
  for (const split of SPLITS) {
    const rows = plan.rows[split];
    const file = config.datasets[split];
    if (rows.length === 0 || file === undefined) continue;
    const before = readText(file, 'dataset file');
    const after = `${before}${before === '' || before.endsWith('\n') ? '' : '\n'}${rows.map((row) => JSON.stringify(row)).join('\n')}\n`;
    const temp = `${file}.tmp-${process.pid}`;
    writeFileSync(temp, after);
    renameSync(temp, file);
    report.files.push({ split, path: file, added: rows.length, sha256_before: sha256(before), sha256_after: sha256(after) });
  }
  const at = (options.now ?? new Date()).toISOString();
  const byDir = new Map<string, typeof report.files>();
  for (const entry of report.files) byDir.set(dirname(entry.path), [...(byDir.get(dirname(entry.path)) ?? []), entry]);
  for (const [dir, files] of byDir) {
    const changelog = join(dir, 'CHANGELOG');
    const parts = files.map((f) => `${basename(f.path)} +${f.added}${f.split === 'train' && plan.sampling > 0 ? ` (${plan.sampling} sampling)` : ''} sha256 ${f.sha256_before.slice(0, 12)}→${f.sha256_after.slice(0, 12)}`);
    appendFileSync(changelog, `${at} datasets add-failures ${basename(eventsFile)}: ${parts.join('; ')}; dropped ${plan.duplicates} duplicate(s), ${plan.noExpected} without expected, ${plan.neverFailed} never failed\n`);
    report.changelogs.push(changelog);
  }
  return report;
}

/** A regular UTF-8 file (a FIFO is refused, not waited on; a bad byte is an error at its line). */
function readText(file: string, what: string): string {
  return readInputTextSync(file, { what, code: 'failures_file', maxBytes: MAX_DATA_FILE_BYTES });
}
