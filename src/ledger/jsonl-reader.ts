/**
 * Reads a JSONL ledger. A torn last line (the process was killed mid-write) is reported,
 * not fatal; a broken line in the middle is an error naming file and line.
 */
import { existsSync, readFileSync } from 'node:fs';
import { IsobudgetError } from '../core/errors.js';
import { jsonErrorText } from '../core/json-error.js';
import { LEDGER_SCHEMA_VERSION } from './records.js';

export interface JsonlRead<T> {
  records: T[];
  /** Byte length of the complete lines (where a torn tail starts). */
  validBytes: number;
  tornTail: boolean;
}

export function readJsonl<T>(file: string, options: { requireSchemaVersion?: boolean } = {}): JsonlRead<T> {
  if (!existsSync(file)) return { records: [], validBytes: 0, tornTail: false };
  const text = readFileSync(file, 'utf8');
  const records: T[] = [];
  let offset = 0;
  let line = 0;
  let validBytes = 0;
  while (offset < text.length) {
    const end = text.indexOf('\n', offset);
    line += 1;
    if (end === -1) {
      // No newline: the writer never finished this line.
      return { records, validBytes, tornTail: text.slice(offset).trim().length > 0 };
    }
    const raw = text.slice(offset, end);
    offset = end + 1;
    // Count bytes as we go: re-measuring the prefix per line would be quadratic.
    const lineBytes = Buffer.byteLength(raw) + 1;
    if (raw.trim() === '') {
      validBytes += lineBytes;
      continue;
    }
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch (error) {
      // The parser's snippet only from a file that is a ledger so far (a line before parsed):
      // a `*.jsonl` found in a folder may be anything.
      throw new IsobudgetError('ledger_parse', `invalid JSON: ${jsonErrorText(error, records.length > 0)}`, {
        location: { file, line },
        hint: 'the ledger is append-only; restore it from the run directory or remove the damaged line',
      });
    }
    if (options.requireSchemaVersion) checkVersion(value, file, line);
    records.push(value as T);
    validBytes += lineBytes;
  }
  return { records, validBytes, tornTail: false };
}

function checkVersion(value: unknown, file: string, line: number): void {
  const version = typeof value === 'object' && value !== null ? (value as { schema_version?: unknown }).schema_version : undefined;
  if (version !== LEDGER_SCHEMA_VERSION) {
    throw new IsobudgetError('ledger_version', `schema_version ${String(version)} is not ${LEDGER_SCHEMA_VERSION}`, {
      location: { file, line, key: 'schema_version' },
      hint: 'this ledger was written by another isobudget version; analyse it with that version',
    });
  }
}
