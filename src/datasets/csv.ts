/**
 * RFC 4180 CSV → one object per record, keyed by the header row. Quoted fields may hold
 * commas, doubled quotes (`""`) and line breaks; CRLF or LF ends a record; a leading BOM is
 * dropped; blank lines are skipped. Every record remembers the line it starts on, so errors
 * point at the file. Pure.
 */
import { IsobudgetError } from '../core/errors.js';

export interface CsvRecord {
  /** 1-based line the record starts on. */
  line: number;
  value: Record<string, string>;
}

const HINT_QUOTE = 'in CSV a field with a quote must be quoted whole, and the quote doubled: "say ""hi""" (RFC 4180)';

/** The column names of a dataset (row.ts): a header naming none of them (nor a `datasets.fields` name) is not quoted. */
const DATASET_COLUMNS: ReadonlySet<string> = new Set(['id', 'input', 'messages', 'expected', 'reference', 'category', 'tags', 'cluster', 'metadata']);

/**
 * Parses `text`; throws IsobudgetError (file, line, column name, fix) on the first malformed
 * record. Columns are named by their header only when the header is a dataset's — it names a
 * dataset column or one of `names` (the file's own names from `datasets.fields`); otherwise
 * by number, so a `secrets.csv` named as a dataset never has its first line quoted.
 */
export function parseCsv(text: string, file: string, names: ReadonlySet<string> = new Set()): CsvRecord[] {
  const isDatasetHeader = (fields: readonly string[]): boolean => fields.some((field) => DATASET_COLUMNS.has(field.trim()) || names.has(field.trim()));
  const rows = tokenize(text.replace(/^\uFEFF/, ''), file, isDatasetHeader);
  const headerRow = rows[0];
  if (headerRow === undefined) return [];
  const header = headerRow.fields.map((name) => name.trim());
  const quoteHeader = isDatasetHeader(header);
  const seen = new Map<string, number>();
  header.forEach((name, index) => {
    if (name === '') throw new IsobudgetError('dataset_csv_header', `header column ${index + 1} has no name`, { location: { file, line: headerRow.line }, hint: 'the first line of a CSV dataset names every column, e.g. id,input,expected' });
    const first = seen.get(name);
    if (first !== undefined) {
      throw new IsobudgetError('dataset_csv_header', quoteHeader ? `header names column \`${name}\` twice` : `header columns ${first + 1} and ${index + 1} have the same name`, { location: { file, line: headerRow.line, ...(quoteHeader ? { key: name } : {}) }, hint: 'give every column a distinct name' });
    }
    seen.set(name, index);
  });
  return rows.slice(1).map((row) => {
    if (row.fields.length !== header.length) {
      throw new IsobudgetError('dataset_csv_fields', `record has ${row.fields.length} field(s), the header has ${header.length}`, {
        location: { file, line: row.line },
        hint: 'quote fields that contain commas or line breaks ("a, b"), and give every record one field per header column',
      });
    }
    return { line: row.line, value: Object.fromEntries(header.map((name, i) => [name, row.fields[i] ?? ''])) };
  });
}

interface RawRow {
  line: number;
  fields: string[];
}

function tokenize(text: string, file: string, isDatasetHeader: (fields: readonly string[]) => boolean): RawRow[] {
  const rows: RawRow[] = [];
  const special = /[,\r\n"]/g;
  let fields: string[] = [];
  let line = 1;
  let rowLine = 1;
  let i = 0;
  /** Where a bad field is: its header name once a dataset's header row is read, else its position. */
  const column = (): { label: string; key?: string } => {
    const header = rows[0]?.fields;
    const name = header !== undefined && isDatasetHeader(header) ? header[fields.length]?.trim() : undefined;
    return name ? { label: `column \`${name}\``, key: name } : { label: `column ${fields.length + 1}` };
  };
  const at = (where: number): { file: string; line: number; key?: string } => {
    const { key } = column();
    return { file, line: where, ...(key === undefined ? {} : { key }) };
  };
  const newlines = (from: number, to: number): number => {
    let count = 0;
    for (let k = text.indexOf('\n', from); k !== -1 && k < to; k = text.indexOf('\n', k + 1)) count += 1;
    return count;
  };
  while (i <= text.length) {
    // At the start of a field.
    let field = '';
    let quoted = false;
    if (text[i] === '"') {
      quoted = true;
      const openLine = line;
      let from = i + 1;
      for (;;) {
        const close = text.indexOf('"', from);
        if (close === -1) {
          throw new IsobudgetError('dataset_csv_quote', `quoted field of ${column().label} is never closed`, { location: at(openLine), hint: `close the quote before the field's comma or line end; ${HINT_QUOTE}` });
        }
        field += text.slice(from, close);
        line += newlines(from, close);
        if (text[close + 1] === '"') {
          field += '"';
          from = close + 2;
          continue;
        }
        i = close + 1;
        break;
      }
      const after = text[i];
      if (after !== undefined && after !== ',' && after !== '\n' && after !== '\r') {
        throw new IsobudgetError('dataset_csv_quote', `text after the closing quote of ${column().label}`, { location: at(line), hint: HINT_QUOTE });
      }
    } else {
      special.lastIndex = i;
      const match = special.exec(text);
      const stop = match === null ? text.length : match.index;
      field = text.slice(i, stop);
      i = stop;
      if (text[i] === '"') {
        throw new IsobudgetError('dataset_csv_quote', `a quote inside the unquoted field of ${column().label}`, { location: at(line), hint: HINT_QUOTE });
      }
    }
    const delimiter = text[i];
    if (delimiter === ',') {
      fields.push(field);
      i += 1;
      continue;
    }
    // End of a record (a line break, or the end of the text); a blank line is no record.
    if (fields.length > 0 || quoted || field !== '') {
      fields.push(field);
      rows.push({ line: rowLine, fields });
    }
    fields = [];
    if (delimiter === undefined) break;
    i += delimiter === '\r' && text[i + 1] === '\n' ? 2 : 1;
    line += 1;
    rowLine = line;
  }
  return rows;
}
