/**
 * A dataset file's text → its records, one per JSONL line or CSV record, each with the line
 * it starts on. Formats are chosen by extension: `.csv` is CSV (RFC 4180), anything else
 * JSONL; a `.gz` suffix (`.jsonl.gz`, `.csv.gz`) is gunzipped first. Pure but for gunzip.
 */
import { gunzipSync } from 'node:zlib';
import { IsobudgetError, IsobudgetErrors } from '../core/errors.js';
import { MAX_DATA_FILE_BYTES } from '../core/input-file.js';
import { parseCsv } from './csv.js';

export type DatasetFormat = 'jsonl' | 'csv';

export type RecordEntry = { line: number; value: unknown } | { line: number; error: unknown };

export function formatOf(file: string): { format: DatasetFormat; gzip: boolean } {
  const lower = file.toLowerCase();
  const gzip = lower.endsWith('.gz');
  const inner = gzip ? lower.slice(0, -3) : lower;
  return { format: inner.endsWith('.csv') ? 'csv' : 'jsonl', gzip };
}

/** The file's bytes as they were written: gunzipped when the name ends in `.gz` (at most MAX_DATA_FILE_BYTES). */
export function unpack(bytes: Buffer, file: string): Buffer {
  if (!formatOf(file).gzip) return bytes;
  try {
    return gunzipSync(bytes, { maxOutputLength: MAX_DATA_FILE_BYTES });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const tooLarge = code === 'ERR_BUFFER_TOO_LARGE' || /larger than|buffer/i.test((error as Error).message) && code !== 'Z_DATA_ERROR';
    throw new IsobudgetErrors([new IsobudgetError('dataset_gzip', tooLarge
      ? `gzipped dataset unpacks to more than ${MAX_DATA_FILE_BYTES / 1024 / 1024} MiB`
      : `not a valid gzip file (${code ?? (error as Error).message})`, {
      location: { file },
      hint: tooLarge ? 'split the dataset into smaller files' : 'a `.gz` dataset must be gzip-compressed JSONL or CSV (gzip -k data.jsonl); or drop the .gz suffix if it is plain text',
    })]);
  }
}

/** Records of `text`; a CSV syntax error is thrown (it breaks every record after it), a bad JSONL line is an entry. */
export function readRecords(text: string, file: string, format: DatasetFormat, names?: ReadonlySet<string>): RecordEntry[] {
  if (format === 'csv') {
    try {
      return parseCsv(text, file, names);
    } catch (error) {
      throw error instanceof IsobudgetError ? new IsobudgetErrors([error]) : error;
    }
  }
  const entries: RecordEntry[] = [];
  text.replace(/^\uFEFF/, '').split(/\r?\n/).forEach((lineText, index) => {
    if (lineText.trim() === '') return;
    try {
      entries.push({ line: index + 1, value: JSON.parse(lineText) as unknown });
    } catch (error) {
      entries.push({ line: index + 1, error });
    }
  });
  return entries;
}
