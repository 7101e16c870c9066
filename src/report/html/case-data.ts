/**
 * The data of the case browser, pure: one row per case with each arm's outcome, tokens and
 * outputs (identical outputs of a case's paths merged, with their count). It is embedded as
 * JSON and rendered page by page in the browser, so a 5,000-case run stays one file that
 * opens fast. Long outputs are cut to fit a size budget; the cut says so and how long the
 * text was (the full text stays in results.jsonl).
 */
import { parseOutputField } from '../../core/output-field.js';
import type { ResultRecord } from '../../ledger/records.js';
import { readOutputField } from '../../scorers/output-field.js';
import { armLetter } from './arm-labels.js';

/**
 * [text, paths with this output, passed (0/1), selected (0/1), full length in characters,
 * scored field]: the last is what `scorer.output_field` read out of the text (an agent's JSON
 * envelope) — shown first, the raw text folded under it — or null without an output_field.
 */
export type OutputEntry = [string, number, number, number, number, string | null];

export interface ArmCell {
  /** Selected path passed: fraction over epochs (0 or 1 with one epoch). */
  p: number;
  /** Any path passed (oracle), fraction over epochs. */
  y: number;
  /** Billed tokens, mean over epochs; null when usage was missing. */
  t: number | null;
  /** Paths in total (n × epochs). */
  k: number;
  o: OutputEntry[];
  /** Finish reasons other than `stop`, e.g. `budget_exhausted×2`. */
  f: string;
  /** Path errors, joined. */
  r: string;
}

export interface CaseRowData {
  id: string;
  s: string;
  c: string;
  /** Input (cut to INPUT_LIMIT) or '' when the dataset was not available. */
  q: string;
  e: string;
  a: Array<ArmCell | null>;
}

export interface CaseBrowserData {
  arms: Array<{ arm: string; label: string; variant: 'baseline' | 'candidate'; n: number }>;
  /** Column index of A, B and of C, D at the largest N (for the filters), -1 when absent. */
  roles: { a: number; b: number; c: number; d: number };
  rows: CaseRowData[];
  /** Characters each output was cut to (at most). */
  outputLimit: number;
  truncatedOutputs: number;
  /** `scorer.output_field` when outputs carry a scored field, else null. */
  outputField: string | null;
}

export interface CaseText {
  input: string;
  expected: string;
}

export interface CaseDataOptions {
  /** Total characters of model output the page may embed (default 4,000,000). */
  outputBudget?: number;
  /** No single output longer than this (default 4,000 characters). */
  maxOutput?: number;
  /** `scorer.output_field` of the run: each output's scored field is shown before its raw text. */
  outputField?: string | undefined;
}

const INPUT_LIMIT = 1500;
const EXPECTED_LIMIT = 500;

export function caseBrowserData(results: readonly ResultRecord[], texts: ReadonlyMap<string, CaseText>, options: CaseDataOptions = {}): CaseBrowserData {
  const scoredField = fieldReader(options.outputField);
  const armKeys = new Map<string, { variant: 'baseline' | 'candidate'; n: number }>();
  for (const r of results) if (!armKeys.has(r.arm)) armKeys.set(r.arm, { variant: r.variant, n: r.n });
  const order = [...armKeys.entries()].sort(([, a], [, b]) => a.n - b.n || (a.variant === b.variant ? 0 : a.variant === 'baseline' ? -1 : 1));
  const allN = order.map(([, a]) => a.n);
  const arms = order.map(([arm, a]) => ({ arm, label: armLetter(a, allN), variant: a.variant, n: a.n }));
  const column = new Map(arms.map((a, i) => [a.arm, i]));
  const maxN = Math.max(1, ...allN);
  const find = (variant: string, n: number): number => arms.findIndex((a) => a.variant === variant && a.n === n);
  const roles = { a: find('baseline', 1), b: find('candidate', 1), c: maxN > 1 ? find('baseline', maxN) : -1, d: maxN > 1 ? find('candidate', maxN) : -1 };

  const byCase = new Map<string, { split: string; category: string; records: ResultRecord[][] }>();
  for (const r of results) {
    let entry = byCase.get(r.case_id);
    if (!entry) byCase.set(r.case_id, (entry = { split: r.split, category: r.category ?? '', records: arms.map(() => []) }));
    entry.records[column.get(r.arm) ?? 0]?.push(r);
  }
  const rows: CaseRowData[] = [];
  const entries: OutputEntry[] = [];
  // The evaluated split first, the regression set after it.
  const splitRank = (split: string): number => (split === 'regression' ? 1 : 0);
  for (const [id, entry] of [...byCase.entries()].sort(([x, a], [y, b]) => splitRank(a.split) - splitRank(b.split) || compareIds(x, y))) {
    const text = texts.get(id);
    const cells = entry.records.map((records) => (records.length === 0 ? null : cellOf(records, scoredField)));
    for (const cell of cells) if (cell) entries.push(...cell.o);
    rows.push({ id, s: entry.split, c: entry.category, q: cut(text?.input ?? '', INPUT_LIMIT), e: cut(text?.expected ?? '', EXPECTED_LIMIT), a: cells });
  }
  const limit = outputLimit(entries.map((e) => e[0].length), options.outputBudget ?? 4_000_000, options.maxOutput ?? 4_000);
  let truncatedOutputs = 0;
  for (const e of entries) {
    if (e[0].length > limit) {
      e[0] = e[0].slice(0, limit);
      truncatedOutputs += 1;
    }
  }
  return { arms, roles, rows, outputLimit: limit, truncatedOutputs, outputField: options.outputField ?? null };
}

/** The scored field of an output, or null (no output_field, or none readable: the raw text then says why). */
function fieldReader(path: string | undefined): (output: string) => string | null {
  const steps = path === undefined ? undefined : parseOutputField(path);
  if (path === undefined || steps === undefined) return () => null;
  return (output) => {
    const value = readOutputField(output, steps, path);
    return value.ok ? value.text : null;
  };
}

function cellOf(records: readonly ResultRecord[], scoredField: (output: string) => string | null): ArmCell {
  const outputs = new Map<string, OutputEntry>();
  const finish = new Map<string, number>();
  const errors = new Set<string>();
  let paths = 0;
  for (const r of records) {
    for (const p of r.paths) {
      paths += 1;
      const selected = r.selected_path === p.path ? 1 : 0;
      const existing = outputs.get(p.output);
      if (existing) {
        existing[1] += 1;
        existing[3] = Math.max(existing[3], selected);
      } else outputs.set(p.output, [p.output, 1, p.passed ? 1 : 0, selected, p.output.length, scoredField(p.output)]);
      if (p.finish_reason !== 'stop') finish.set(p.finish_reason, (finish.get(p.finish_reason) ?? 0) + 1);
      if (p.error) errors.add(p.error);
    }
  }
  const known = records.every((r) => r.total_tokens !== undefined);
  const mean = (f: (r: ResultRecord) => number): number => records.reduce((acc, r) => acc + f(r), 0) / records.length;
  return {
    p: mean((r) => (r.passed ? 1 : 0)),
    y: mean((r) => (r.passed_any ? 1 : 0)),
    t: known ? Math.round(mean((r) => r.total_tokens ?? 0)) : null,
    k: paths,
    // Selected output first, then the most frequent.
    o: [...outputs.values()].sort((x, y) => y[3] - x[3] || y[1] - x[1]),
    f: [...finish.entries()].map(([reason, n]) => `${reason}×${n}`).join(', '),
    r: cut([...errors].join('; '), 500),
  };
}

/**
 * The largest per-output length L ≤ max such that Σ min(length, L) fits the budget: short
 * outputs are never cut, long ones are cut evenly (water-filling).
 */
export function outputLimit(lengths: readonly number[], budget: number, max: number): number {
  const total = lengths.reduce((acc, n) => acc + Math.min(n, max), 0);
  if (total <= budget) return max;
  let low = 0;
  let high = max;
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    const used = lengths.reduce((acc, n) => acc + Math.min(n, mid), 0);
    if (used <= budget) low = mid;
    else high = mid - 1;
  }
  return Math.max(low, 80);
}

function cut(text: string, limit: number): string {
  return text.length > limit ? `${text.slice(0, limit)}… [${text.length.toLocaleString('en-US')} characters in full]` : text;
}

/** Natural order: `case-2` before `case-10` (one collator: creating one per call is slow). */
const compareIds = new Intl.Collator('en', { numeric: true }).compare;
