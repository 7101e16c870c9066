/** JSONL datasets → `EvalCase[]`, with every bad row reported by file:line and key. */
import { resolve } from 'node:path';
import type { EvalCase } from '../core/case.js';
import { IsobudgetError, IsobudgetErrors } from '../core/errors.js';
import { sha256, stableStringify } from '../core/hash.js';
import { decodeUtf8, MAX_DATA_FILE_BYTES, readInputFile } from '../core/input-file.js';
import { jsonErrorColumn, jsonErrorText } from '../core/json-error.js';
import type { SplitName } from '../config/types.js';
import { mapFields, type DatasetFields } from './fields.js';
import { collapseMissingKeyErrors } from './field-errors.js';
import { formatOf, readRecords, unpack, type DatasetFormat } from './records.js';
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
  /** `datasets.fields`: where each row keeps its id, input, expected answer and category. */
  fields?: DatasetFields;
  /** Default: from the file's extension (`.csv`, else JSONL). */
  format?: DatasetFormat;
}

export interface ParsedDataset {
  cases: EvalCase[];
  /** Said once per file, not per row (e.g. ids made from a hash of the input). */
  warnings: string[];
}

/** `{ fields }` of a config's datasets block, or nothing: spread into LoadDatasetOptions. */
export function fieldsOf(config: { datasets: { fields?: DatasetFields } }): { fields?: DatasetFields } {
  return config.datasets.fields === undefined ? {} : { fields: config.datasets.fields };
}

function keyOf(options: LoadDatasetOptions): string | undefined {
  return options.configKey ?? (options.split === undefined ? undefined : `datasets.${options.split}`);
}

/**
 * Parses a dataset's text as if read from `file` (JSONL, or CSV by the `.csv` extension or
 * `options.format`). Pure: throws `IsobudgetErrors` with all row problems.
 */
export function parseDatasetText(text: string, file: string, options: LoadDatasetOptions = {}): EvalCase[] {
  return parseDataset(text, file, options).cases;
}

/**
 * The cases and what to warn about once (ids made from a hash of the input).
 *
 * Errors quote what they found (the parser's snippet, a row's value) only when the file is
 * JSONL at all — some row is a JSON object. A file that is not (`../../etc/passwd` named as
 * a dataset) gets one error at its first line, with nothing of its content.
 */
export function parseDataset(text: string, file: string, options: LoadDatasetOptions = {}): ParsedDataset {
  const format = options.format ?? formatOf(file).format;
  // CSV headers are quoted in errors only when they name a dataset column or one of these.
  const columns = new Set(Object.values(options.fields ?? {}).flatMap((path) => (typeof path === 'string' ? [path.split('.')[0] ?? path] : [])));
  const parsed = readRecords(text, file, format, columns);
  const objects = parsed.filter((entry) => 'value' in entry && isRecord(entry.value)).length;
  const quote = objects > 0;
  const first = parsed[0];
  // No row is a JSON object: not a dataset at all (`../../etc/passwd`). One located error, not one per line.
  if (!quote && first !== undefined) {
    const what = 'value' in first ? `row is ${kindOf(first.value)}, not a JSON object` : 'not JSONL';
    throw new IsobudgetErrors([new IsobudgetError('dataset_not_jsonl', `${what}: none of the file's ${parsed.length} non-blank line(s) is a JSON object`, {
      location: { file, line: first.line },
      hint: 'a dataset has one JSON object per line (or is a .csv): check that the path names the dataset',
    })]);
  }
  const fields = options.fields ?? {};
  const errors: IsobudgetError[] = [];
  const rows: Array<{ line: number; value: unknown }> = [];
  for (const entry of parsed) {
    const { line } = entry;
    if ('error' in entry) {
      const column = jsonErrorColumn(entry.error);
      errors.push(new IsobudgetError('dataset_invalid_json', `invalid JSON on line ${line}: ${jsonErrorText(entry.error, quote)}`, {
        location: { file, line, ...(column === undefined ? {} : { column }) },
        hint: 'each non-blank line must be one complete JSON object (JSONL); check quotes, commas and brackets',
      }));
    } else if (isRecord(entry.value) && Object.keys(fields).length > 0) {
      const mapped = mapFields(entry.value, fields, { file, line });
      errors.push(...mapped.errors);
      if (mapped.errors.length === 0) rows.push({ line, value: mapped.row });
    } else {
      rows.push(entry);
    }
  }
  // No row names an id (and datasets.fields.id does not ask for one): ids from a hash of the input.
  const hashIds = fields.id === undefined && rows.length > 0 && rows.every((row) => !isRecord(row.value) || row.value['id'] === undefined || row.value['id'] === null);
  const names = Object.fromEntries(Object.entries(fields).filter(([, path]) => path !== undefined)) as Record<string, string>;
  const cases: EvalCase[] = [];
  const firstLineOfId = new Map<string, number>();
  for (const { line, value } of rows) {
    const withId = hashIds && isRecord(value) ? { ...value, id: inputHashId(value) } : value;
    const row = parseRow(withId, { file, line, judged: options.judged ?? false, names });
    errors.push(...row.errors);
    if (!row.evalCase) continue;
    const previous = firstLineOfId.get(row.evalCase.id);
    if (previous !== undefined) {
      errors.push(new IsobudgetError('dataset_duplicate_id', `duplicate id ${JSON.stringify(row.evalCase.id)} on lines ${previous} and ${line}${hashIds ? ' (ids are a hash of the input: the two rows have the same input)' : ''}`, {
        location: { file, line, key: names['id'] ?? 'id' },
        hint: hashIds ? 'remove one of the two rows, or give every row an id' : 'ids must be unique within a dataset: rename or remove one of the rows',
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
    const objectRows = parsed.flatMap((entry) => ('value' in entry && isRecord(entry.value) ? [entry.value] : []));
    const collapsed = collapseMissingKeyErrors(errors, objectRows.length, Object.keys(objectRows[0] ?? {}));
    errors.length = 0;
    errors.push(...collapsed);
    const shown = errors.slice(0, limit);
    if (errors.length > limit) {
      shown.push(new IsobudgetError('dataset_more_errors', `and ${errors.length - limit} more error(s) in this dataset`, {
        location: { file },
        hint: 'fix the errors above first, then run again to see the rest',
      }));
    }
    throw new IsobudgetErrors(shown);
  }
  const warnings = hashIds ? [`${file}: no row has an \`id\`: each case's id is the first 12 hex digits of the sha256 of its input, stable while the input is (add an \`id\`${format === 'csv' ? ' column' : ''}, or set datasets.fields.id, to choose your own)`] : [];
  return { cases, warnings };
}

/** A stable id for a row without one: the first 12 hex digits of the sha256 of its input (or messages). */
export function inputHashId(row: Record<string, unknown>): string | undefined {
  const input = row['input'] ?? row['messages'];
  if (input === undefined || input === null) return undefined;
  return sha256(typeof input === 'string' ? input : stableStringify(input)).slice(0, 12);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
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
export async function loadDatasetFile(path: string, splitOrOptions?: DatasetSplit | LoadDatasetOptions, more: LoadDatasetOptions = {}): Promise<ParsedDataset & { sha256: string }> {
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
  // The hash is of the bytes on disk (gzipped or not): what the manifest compares.
  const text = decodeDataset(unpack(bytes, file), file);
  return { ...parseDataset(text, file, options), sha256: sha256(bytes) };
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
