/** JSONL datasets → `EvalCase[]`, with every bad row reported by file:line and key. */
import { resolve } from 'node:path';
import type { EvalCase } from '../core/case.js';
import { IsobudgetError, IsobudgetErrors } from '../core/errors.js';
import { sha256 } from '../core/hash.js';
import { decodeUtf8, MAX_DATA_FILE_BYTES, readInputFile } from '../core/input-file.js';
import { jsonErrorColumn, jsonErrorText } from '../core/json-error.js';
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

/**
 * Parses JSONL text as if read from `file`. Pure: throws `IsobudgetErrors` with all row problems.
 *
 * Errors quote what they found (the parser's snippet, a row's value) only when the file is
 * JSONL at all — some row is a JSON object. A file that is not (`../../etc/passwd` named as
 * a dataset) gets errors by line and column, with nothing of its content.
 */
export function parseDatasetText(text: string, file: string, options: LoadDatasetOptions = {}): EvalCase[] {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  const parsed: Array<{ line: number; value: unknown } | { line: number; error: unknown }> = [];
  let objects = 0;
  lines.forEach((lineText, index) => {
    if (lineText.trim() === '') return;
    try {
      const value: unknown = JSON.parse(lineText);
      if (value !== null && typeof value === 'object' && !Array.isArray(value)) objects += 1;
      parsed.push({ line: index + 1, value });
    } catch (error) {
      parsed.push({ line: index + 1, error });
    }
  });
  const quote = objects > 0;
  const errors: IsobudgetError[] = [];
  const cases: EvalCase[] = [];
  const firstLineOfId = new Map<string, number>();
  for (const entry of parsed) {
    const { line } = entry;
    if ('error' in entry) {
      const column = jsonErrorColumn(entry.error);
      errors.push(new IsobudgetError('dataset_invalid_json', `invalid JSON on line ${line}: ${jsonErrorText(entry.error, quote)}`, {
        location: { file, line, ...(column === undefined ? {} : { column }) },
        hint: quote ? 'each non-blank line must be one complete JSON object (JSONL); check quotes, commas and brackets' : 'this file is not JSONL (no line is a JSON object): check that the path names the dataset',
      }));
      continue;
    }
    if (!quote) {
      errors.push(new IsobudgetError('dataset_row_not_object', `row is ${kindOf(entry.value)}, not a JSON object (and no row of this file is one)`, {
        location: { file, line },
        hint: 'this file is not JSONL of objects: check that the path names the dataset',
      }));
      continue;
    }
    const row = parseRow(entry.value, { file, line, judged: options.judged ?? false });
    errors.push(...row.errors);
    if (!row.evalCase) continue;
    const previous = firstLineOfId.get(row.evalCase.id);
    if (previous !== undefined) {
      errors.push(new IsobudgetError('dataset_duplicate_id', `duplicate id ${JSON.stringify(row.evalCase.id)} on lines ${previous} and ${line}`, {
        location: { file, line, key: 'id' },
        hint: 'ids must be unique within a dataset: rename or remove one of the rows',
      }));
      continue;
    }
    firstLineOfId.set(row.evalCase.id, line);
    cases.push(row.evalCase);
  }

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
  return (await loadDatasetFile(path, splitOrOptions, more)).cases;
}

/**
 * A dataset's cases and the sha256 of its bytes, read once. Only a regular file of at most
 * MAX_DATA_FILE_BYTES is read (a FIFO or /dev/zero named as a dataset is refused, never
 * waited on), and it must be UTF-8 (a bad byte is reported by line and column).
 */
export async function loadDatasetFile(path: string, splitOrOptions?: DatasetSplit | LoadDatasetOptions, more: LoadDatasetOptions = {}): Promise<{ cases: EvalCase[]; sha256: string }> {
  const options: LoadDatasetOptions = typeof splitOrOptions === 'string' ? { ...more, split: splitOrOptions } : { ...more, ...(splitOrOptions ?? {}) };
  const file = resolve(path);
  const key = keyOf(options);
  const origin = key === undefined ? '' : ` (set by \`${key}\`${options.configFile === undefined ? '' : ` in ${options.configFile}`})`;
  const bytes = await readInputFile(file, {
    what: 'dataset file',
    code: 'dataset',
    maxBytes: MAX_DATA_FILE_BYTES,
    origin,
    location: { file: options.configFile ?? file, ...(key === undefined ? {} : { key }) },
    notFoundHint: 'fix the path (dataset paths are relative to the config file) or create the file',
  }).catch((error: unknown) => {
    throw error instanceof IsobudgetError ? new IsobudgetErrors([error]) : error;
  });
  const text = decodeDataset(bytes, file);
  return { cases: parseDatasetText(text, file, options), sha256: sha256(bytes) };
}

function decodeDataset(bytes: Buffer, file: string): string {
  try {
    return decodeUtf8(bytes, file, { what: 'dataset file', code: 'dataset' });
  } catch (error) {
    throw error instanceof IsobudgetError ? new IsobudgetErrors([error]) : error;
  }
}

/** What a JSON value is, without quoting it. */
function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'boolean') return 'true or false';
  return `a ${typeof value}`;
}
