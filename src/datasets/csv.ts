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

/** Parses `text`; throws IsobudgetError (file, line, column name, fix) on the first malformed record. */
export function parseCsv(text: string, file: string): CsvRecord[] {
  const rows = tokenize(text.replace(/^\uFEFF/, ''), file);
  const headerRow = rows[0];
  if (headerRow === undefined) return [];
  const header = headerRow.fields.map((name) => name.trim());
  const seen = new Set<string>();
  header.forEach((name, index) => {
    if (name === '') throw new IsobudgetError('dataset_csv_header', `header column ${index + 1} has no name`, { location: { file, line: headerRow.line }, hint: 'the first line of a CSV dataset names every column, e.g. id,input,expected' });
    if (seen.has(name)) throw new IsobudgetError('dataset_csv_header', `header names column \`${name}\` twice`, { location: { file, line: headerRow.line, key: name }, hint: 'give every column a distinct name' });
    seen.add(name);
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

function tokenize(text: string, file: string): RawRow[] {
  const rows: RawRow[] = [];
  let fields: string[] = [];
  let field = '';
  let line = 1;
  let rowLine = 1;
  let i = 0;
  /** Whether the current record has any content (a blank line is skipped, not a record of one empty field). */
  let started = false;
  /** Where a bad field is: its header name once the header row is read, else its position. */
  const column = (): { label: string; key?: string } => {
    const name = rows[0]?.fields[fields.length]?.trim();
    return name ? { label: `column \`${name}\``, key: name } : { label: `column ${fields.length + 1}` };
  };
  const at = (where: number): { file: string; line: number; key?: string } => {
    const { key } = column();
    return { file, line: where, ...(key === undefined ? {} : { key }) };
  };
  const endField = (): void => {
    fields.push(field);
    field = '';
  };
  const endRow = (): void => {
    if (started) {
      endField();
      rows.push({ line: rowLine, fields });
    }
    fields = [];
    field = '';
    started = false;
  };
  while (i < text.length) {
    const ch = text[i] as string;
    if (ch === '"' && field === '' && !fieldHadText(text, i)) {
      // A quoted field: up to the next quote that is not doubled.
      const openLine = line;
      started = true;
      i += 1;
      for (;;) {
        if (i >= text.length) {
          throw new IsobudgetError('dataset_csv_quote', `quoted field of ${column().label} is never closed`, { location: at(openLine), hint: `close the quote before the field's comma or line end; ${HINT_QUOTE}` });
        }
        const c = text[i] as string;
        if (c === '"') {
          if (text[i + 1] === '"') {
            field += '"';
            i += 2;
            continue;
          }
          i += 1;
          break;
        }
        if (c === '\n') line += 1;
        field += c;
        i += 1;
      }
      const after = text[i];
      if (after !== undefined && after !== ',' && after !== '\n' && after !== '\r') {
        throw new IsobudgetError('dataset_csv_quote', `text after the closing quote of ${column().label}`, { location: at(line), hint: HINT_QUOTE });
      }
      continue;
    }
    if (ch === '"') {
      throw new IsobudgetError('dataset_csv_quote', `a quote inside the unquoted field of ${column().label}`, { location: at(line), hint: HINT_QUOTE });
    }
    if (ch === ',') {
      started = true;
      endField();
      i += 1;
      continue;
    }
    if (ch === '\r' || ch === '\n') {
      endRow();
      i += ch === '\r' && text[i + 1] === '\n' ? 2 : 1;
      line += 1;
      rowLine = line;
      continue;
    }
    if (!started) rowLine = line;
    started = true;
    field += ch;
    i += 1;
  }
  endRow();
  return rows;
}

/** Whether the field the quote at `index` would open already has text (`ab"c` — not a quoted field). */
function fieldHadText(text: string, index: number): boolean {
  const before = text[index - 1];
  return before !== undefined && before !== ',' && before !== '\n' && before !== '\r';
}
