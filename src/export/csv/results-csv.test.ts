import { describe, expect, test } from 'vitest';
import { makeResults } from '../../test-support/results.js';
import { csvCell, renderResultsCsv, RESULTS_CSV_COLUMNS } from './results-csv.js';

/** A small RFC 4180 reader, independent of the writer: quoted fields, doubled quotes, CRLF records. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i += 1) {
    const c = text[i] as string;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i += 1;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(field);
      field = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      i += 1;
    } else field += c;
  }
  return rows;
}

describe('csvCell', () => {
  test.each([
    ['plain', 'plain'],
    ['a,b', '"a,b"'],
    ['say "hi"', '"say ""hi"""'],
    ['two\nlines', '"two\nlines"'],
    ['=HYPERLINK("http://x","y")', `"'=HYPERLINK(""http://x"",""y"")"`],
    ['+1+2', "'+1+2"],
    ['-2+3', "'-2+3"],
    ['@SUM(A1)', "'@SUM(A1)"],
    ['\tleading tab', "'\tleading tab"],
    ['\u001b[2J\u001b[1;1Hcleared', 'cleared'],
    ['\u001b]52;c;ZXZpbA==\u0007copied', 'copied'],
    ['\u001b[31m=1+1', "'=1+1"],
    ['back\bspace\u202eevil', 'backspaceevil'],
    ['\u009b2Jc1 csi', 'c1 csi'],
  ])('%j → %j', (input, expected) => {
    expect(csvCell(input)).toBe(expected);
  });

  test('numbers and booleans are written as such, never prefixed; unknown is empty, not 0', () => {
    expect(csvCell(-0.5)).toBe('-0.5');
    expect(csvCell(true)).toBe('true');
    expect(csvCell(undefined)).toBe('');
    expect(csvCell(null)).toBe('');
    expect(csvCell(Number.POSITIVE_INFINITY)).toBe('');
  });
});

describe('renderResultsCsv', () => {
  test('one row per (case, arm, epoch), header first, CRLF records that an RFC 4180 reader splits back', () => {
    const results = makeResults({ cases: 3, arms: [{ arm: 'baseline_single', passed: (i) => i > 0, tokens: (i) => (i === 2 ? undefined : 100 + i) }, { arm: 'candidate_best_of_4', passed: () => true }] });
    const second = results[1];
    if (second === undefined) throw new Error('no results');
    second.paths = [
      { path: 0, output: 'x', passed: false, score: 0, finish_reason: 'error', tokens: undefined, error: 'upstream 503, "busy", retry later' },
      { path: 1, output: 'y', passed: false, score: 0, finish_reason: 'length', tokens: 5, error: undefined },
    ];
    second.selected_path = 1;
    second.category = '=cmd|\' /C calc\'!A0';
    const text = renderResultsCsv([...results, { ...second, epoch: 1 }]);
    expect(text.endsWith('\r\n')).toBe(true);
    const rows = parseCsv(text);
    expect(rows[0]).toEqual([...RESULTS_CSV_COLUMNS]);
    expect(rows).toHaveLength(1 + results.length + 1);
    const column = (name: (typeof RESULTS_CSV_COLUMNS)[number]) => RESULTS_CSV_COLUMNS.indexOf(name);
    for (const row of rows) expect(row).toHaveLength(RESULTS_CSV_COLUMNS.length);
    const row = rows[2] as string[];
    expect(row[column('case_id')]).toBe(second.case_id);
    expect(row[column('passed')]).toBe('true');
    expect(row[column('total_tokens')]).toBe('101');
    expect(row[column('finish_reason')]).toBe('length;error');
    expect(row[column('error')]).toBe('upstream 503, "busy", retry later');
    expect(row[column('category')]).toBe("'=cmd|' /C calc'!A0");
    // The case whose usage is unknown: empty, not 0.
    expect((rows[3] as string[])[column('total_tokens')]).toBe('');
    expect((rows.at(-1) as string[])[column('epoch')]).toBe('1');
  });
});
