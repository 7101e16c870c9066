/**
 * Per-case results as CSV, pure: one row per (case, arm, epoch) — what a spreadsheet, pandas
 * or a BI tool reads without knowing the ledger.
 *
 * RFC 4180: records end in CRLF, a field is quoted when it holds a comma, a quote, CR or LF,
 * and a quote inside is doubled. Two more rules because the cells hold data from models and
 * datasets that a spreadsheet will open:
 * - formula injection (OWASP "CSV Injection"): a text cell that starts with `=`, `+`, `-`,
 *   `@`, tab or CR gets a leading `'`, so Excel, LibreOffice and Sheets show it as text
 *   instead of evaluating it. Numbers we write ourselves (e.g. `-0.5`) are never prefixed.
 * - terminal escapes (ESC/CSI/OSC sequences, C0/C1 controls, bidi overrides) are stripped,
 *   so `cat`-ing the file cannot move the cursor, rewrite lines or set the clipboard.
 * Unknown is not zero: a count or cost the ledger does not know is an empty cell.
 */
import type { ResultRecord } from '../../ledger/records.js';

/** Column order of the CSV (the header row). */
export const RESULTS_CSV_COLUMNS = [
  'run_id', 'case_id', 'arm', 'variant', 'n', 'epoch', 'split', 'category',
  'passed', 'passed_any', 'passes', 'selected_path', 'judge_score',
  'prompt_tokens', 'completion_tokens', 'total_tokens', 'cost_usd',
  'calls', 'calls_missing_usage', 'retries', 'latency_ms',
  'finish_reason', 'budget_exhausted', 'over_budget', 'error',
] as const;

type Cell = string | number | boolean | null | undefined;

/** The whole CSV: header and one row per result, in ledger order, each ending in CRLF. */
export function renderResultsCsv(results: readonly ResultRecord[]): string {
  const lines = [RESULTS_CSV_COLUMNS.join(',')];
  for (const result of results) lines.push(resultRow(result).map(csvCell).join(','));
  return `${lines.join('\r\n')}\r\n`;
}

function resultRow(r: ResultRecord): Cell[] {
  return [
    r.run_id, r.case_id, r.arm, r.variant, r.n, r.epoch, r.split, r.category,
    r.passed, r.passed_any, r.passes, r.selected_path, r.judge_score,
    r.prompt_tokens, r.completion_tokens, r.total_tokens, r.cost_usd,
    r.calls, r.calls_missing_usage, r.retries, r.latency_ms,
    finishReasons(r), r.budget_exhausted, r.over_budget, errors(r),
  ];
}

/** The selected path's finish reason first, then any other the arm's paths ended with (`stop;length`). */
function finishReasons(r: ResultRecord): string | undefined {
  const selected = r.paths.find((p) => p.path === r.selected_path) ?? r.paths[0];
  const reasons = [selected?.finish_reason, ...r.paths.map((p) => p.finish_reason)].filter((x): x is NonNullable<typeof x> => x !== undefined);
  return reasons.length === 0 ? undefined : [...new Set(reasons)].join(';');
}

/** Distinct path errors, in path order (as recorded: never a secret). */
function errors(r: ResultRecord): string | undefined {
  const found = [...new Set(r.paths.map((p) => p.error).filter((e): e is string => e !== undefined && e !== ''))];
  return found.length === 0 ? undefined : found.join('; ');
}

/** ESC sequences (CSI … final byte, OSC … BEL/ST, two-byte ESC x), then single control characters. */
const ESCAPE_SEQUENCE = /\u001b\[[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)?|\u001b[@-_]?|\u009b[0-?]*[ -/]*[@-~]|\u009d[^\u0007\u009c]*[\u0007\u009c]?/g;
/** Controls kept out of a cell: C0 except tab/LF/CR, DEL, C1, bidi embeddings/overrides/isolates, U+2028/9. */
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",\r\n]/;

/** One field: numbers and booleans as written, text cleaned, defused and quoted as needed. */
export function csvCell(value: Cell): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  let text = value.replace(ESCAPE_SEQUENCE, '').replace(CONTROL, '');
  if (FORMULA_START.test(text)) text = `'${text}`;
  return NEEDS_QUOTES.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}
