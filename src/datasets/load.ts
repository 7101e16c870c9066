/** JSONL datasets → `EvalCase[]`, with every bad row reported by file:line and key. */
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { EvalCase } from '../core/case.js';
import { IsobudgetError, IsobudgetErrors } from '../core/errors.js';
import type { SplitName } from '../config/types.js';
import { parseRow } from './row.js';

export type DatasetSplit = SplitName | 'regression';

export interface LoadDatasetOptions {
  /** Which split this file is; names the config key (`datasets.<split>`) in errors. */
  split?: DatasetSplit;
  /** Config key that pointed to this file, e.g. `datasets.val` (default: from `split`). */
  configKey?: string;
  /** Config file that named this dataset, for "file not found" errors. */
  configFile?: string;
  /** A judge will grade: rows need no `expected` / `reference`. */
  judged?: boolean;
  /** Row errors listed before "and N more" (default 20). */
  maxErrors?: number;
}

function keyOf(options: LoadDatasetOptions): string | undefined {
  return options.configKey ?? (options.split === undefined ? undefined : `datasets.${options.split}`);
}

/** Parses JSONL text as if read from `file`. Pure: throws `IsobudgetErrors` with all row problems. */
export function parseDatasetText(text: string, file: string, options: LoadDatasetOptions = {}): EvalCase[] {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  const errors: IsobudgetError[] = [];
  const cases: EvalCase[] = [];
  const firstLineOfId = new Map<string, number>();
  lines.forEach((lineText, index) => {
    const line = index + 1;
    if (lineText.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(lineText);
    } catch (error) {
      const parserMessage = (error as Error).message;
      const position = /position (\d+)/.exec(parserMessage)?.[1];
      errors.push(new IsobudgetError('dataset_invalid_json', `invalid JSON on line ${line}: ${parserMessage}`, {
        location: { file, line, ...(position === undefined ? {} : { column: Number(position) + 1 }) },
        hint: 'each non-blank line must be one complete JSON object (JSONL); check quotes, commas and brackets',
      }));
      return;
    }
    const row = parseRow(value, { file, line, judged: options.judged ?? false });
    errors.push(...row.errors);
    if (!row.evalCase) return;
    const previous = firstLineOfId.get(row.evalCase.id);
    if (previous !== undefined) {
      errors.push(new IsobudgetError('dataset_duplicate_id', `duplicate id ${JSON.stringify(row.evalCase.id)} on lines ${previous} and ${line}`, {
        location: { file, line, key: 'id' },
        hint: 'ids must be unique within a dataset: rename or remove one of the rows',
      }));
      return;
    }
    firstLineOfId.set(row.evalCase.id, line);
    cases.push(row.evalCase);
  });

  const key = keyOf(options);
  if (errors.length === 0 && cases.length === 0) {
    errors.push(new IsobudgetError('dataset_empty', `dataset has no rows: ${file}`, {
      location: { file, line: 1, ...(key === undefined ? {} : { key }) },
      hint: `add one JSON object per line${key === undefined ? '' : `, or remove \`${key}\` from the config`}`,
    }));
  }
  if (errors.length > 0) {
    const limit = options.maxErrors ?? 20;
    const shown = errors.slice(0, limit);
    if (errors.length > limit) {
      shown.push(new IsobudgetError('dataset_more_errors', `and ${errors.length - limit} more error(s) in this dataset`, {
        location: { file },
        hint: 'fix the errors above first, then run again to see the rest',
      }));
    }
    throw new IsobudgetErrors(shown);
  }
  return cases;
}

/**
 * Reads a JSONL dataset. The second argument is the split name or the options
 * (`loadDataset(path, 'val')`, `loadDataset(path, { configKey: 'datasets.val' })`).
 */
export async function loadDataset(path: string, splitOrOptions?: DatasetSplit | LoadDatasetOptions, more: LoadDatasetOptions = {}): Promise<EvalCase[]> {
  const options: LoadDatasetOptions = typeof splitOrOptions === 'string' ? { ...more, split: splitOrOptions } : { ...more, ...(splitOrOptions ?? {}) };
  const file = resolve(path);
  const key = keyOf(options);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const missing = code === 'ENOENT';
    const what = missing ? 'dataset file not found' : code === 'EISDIR' ? 'dataset path is a directory, not a JSONL file' : 'cannot read dataset file';
    const origin = key === undefined ? '' : ` (set by \`${key}\`${options.configFile === undefined ? '' : ` in ${options.configFile}`})`;
    throw new IsobudgetErrors([
      new IsobudgetError(missing ? 'dataset_not_found' : 'dataset_unreadable', `${what}: ${file}${origin}`, {
        location: { file: options.configFile ?? file, ...(key === undefined ? {} : { key }) },
        hint: missing || code === 'EISDIR' ? 'fix the path (dataset paths are relative to the config file) or create the file' : (error as Error).message,
        cause: error,
      }),
    ]);
  }
  return parseDatasetText(text, file, options);
}
