/**
 * The Run screen's case grid, pure: one row per case (epochs and repeats folded into k/n),
 * the arms side by side, the filters a reviewer reaches for, a search over ids, inputs and
 * outputs, and paging. The server pages; the static bundle filters in the page.
 */
import type { ResultRecord } from '../ledger/records.js';

/** One arm of one case: k of n passed over its epochs (n=N arms: the selected path). */
export interface GridCell {
  arm: string;
  passed: number;
  runs: number;
  /** Epochs in which any path passed (pass@N oracle). */
  passedAny: number;
  /** Σ billed tokens over the epochs; undefined when one of them had unknown usage. */
  tokens: number | undefined;
  /** Σ USD; null when one call had no price or no usage. */
  costUsd: number | null;
  errors: number;
  budgetExhausted: number;
  length: number;
}

export interface GridRow {
  caseId: string;
  split: string;
  category: string | undefined;
  cells: Map<string, GridCell>;
  /** Lower-cased ids, input and outputs: what the search reads. */
  haystack: string;
}

export const GRID_FILTERS = ['all', 'won', 'bon_only', 'regressions', 'errors', 'budget_exhausted', 'length'] as const;
export type GridFilter = (typeof GRID_FILTERS)[number];

export const FILTER_LABELS: Record<GridFilter, string> = {
  all: 'all cases',
  won: 'candidate won at n=1',
  bon_only: 'candidate passes only with Best-of-N',
  regressions: 'regressions (baseline passed, candidate did not, n=1)',
  errors: 'errors',
  budget_exhausted: 'budget_exhausted',
  length: 'finish_reason length',
};

export function isGridFilter(value: string): value is GridFilter {
  return (GRID_FILTERS as readonly string[]).includes(value);
}

/** Folds result records into rows, in the order cases first appear. `inputs`: case text by id, for the search. */
export function gridRows(results: readonly ResultRecord[], inputs: ReadonlyMap<string, string>): GridRow[] {
  const rows = new Map<string, GridRow>();
  const text = new Map<string, string[]>();
  for (const result of results) {
    const key = `${result.split}\u0000${result.case_id}`;
    let row = rows.get(key);
    if (!row) {
      row = { caseId: result.case_id, split: result.split, category: result.category, cells: new Map(), haystack: '' };
      rows.set(key, row);
      text.set(key, [result.case_id, inputs.get(result.case_id) ?? '']);
    }
    let cell = row.cells.get(result.arm);
    if (!cell) {
      cell = { arm: result.arm, passed: 0, runs: 0, passedAny: 0, tokens: 0, costUsd: 0, errors: 0, budgetExhausted: 0, length: 0 };
      row.cells.set(result.arm, cell);
    }
    cell.runs += 1;
    if (result.passed) cell.passed += 1;
    if (result.passed_any) cell.passedAny += 1;
    cell.tokens = cell.tokens === undefined || result.total_tokens === undefined ? undefined : cell.tokens + result.total_tokens;
    cell.costUsd = cell.costUsd === null || result.cost_usd === null || result.cost_usd === undefined ? null : cell.costUsd + result.cost_usd;
    for (const path of result.paths) {
      if (path.error !== undefined) cell.errors += 1;
      if (path.finish_reason === 'budget_exhausted') cell.budgetExhausted += 1;
      if (path.finish_reason === 'length') cell.length += 1;
      text.get(key)?.push(path.output);
    }
  }
  for (const [key, row] of rows) row.haystack = (text.get(key) ?? []).join('\n').toLowerCase();
  return [...rows.values()];
}

const rate = (cell: GridCell | undefined): number => (cell === undefined || cell.runs === 0 ? 0 : cell.passed / cell.runs);

/** The arms the filters compare: the n=1 pair and the Best-of-N pair (largest n). */
export interface ArmRoles {
  baselineSingle: string | undefined;
  candidateSingle: string | undefined;
  candidateBest: string | undefined;
}

export function matchesFilter(row: GridRow, filter: GridFilter, roles: ArmRoles): boolean {
  const cells = [...row.cells.values()];
  const a = roles.baselineSingle === undefined ? undefined : row.cells.get(roles.baselineSingle);
  const b = roles.candidateSingle === undefined ? undefined : row.cells.get(roles.candidateSingle);
  const d = roles.candidateBest === undefined ? undefined : row.cells.get(roles.candidateBest);
  switch (filter) {
    case 'all':
      return true;
    case 'won':
      return a !== undefined && b !== undefined && rate(b) > rate(a);
    case 'regressions':
      return a !== undefined && b !== undefined && rate(b) < rate(a);
    case 'bon_only':
      return b !== undefined && d !== undefined && b.passed === 0 && d.passed > 0;
    case 'errors':
      return cells.some((c) => c.errors > 0);
    case 'budget_exhausted':
      return cells.some((c) => c.budgetExhausted > 0);
    case 'length':
      return cells.some((c) => c.length > 0);
  }
}

export interface GridQuery {
  filter: GridFilter;
  /** Case-insensitive substring of the id, the input or any output; '' for none. */
  search: string;
  /** 0-based page. */
  page: number;
  pageSize: number;
}

export interface GridPage {
  rows: GridRow[];
  /** Rows matching the filter and search, over all pages. */
  matching: number;
  page: number;
  pages: number;
}

export function queryGrid(rows: readonly GridRow[], query: GridQuery, roles: ArmRoles): GridPage {
  const needle = query.search.trim().toLowerCase();
  const matching = rows.filter((row) => matchesFilter(row, query.filter, roles) && (needle === '' || row.haystack.includes(needle)));
  const pages = Math.max(1, Math.ceil(matching.length / query.pageSize));
  const page = Math.min(Math.max(0, query.page), pages - 1);
  return { rows: matching.slice(page * query.pageSize, (page + 1) * query.pageSize), matching: matching.length, page, pages };
}

/** Which arm plays which role, from the arms' names and n (seed names: baseline_single, candidate_best_of_8, …). */
export function armRoles(arms: ReadonlyArray<{ arm: string; n: number; variant?: string }>): ArmRoles {
  const variantOf = (arm: { arm: string; variant?: string }): string => arm.variant ?? (arm.arm.startsWith('candidate') ? 'candidate' : 'baseline');
  const single = (variant: string): string | undefined => arms.find((a) => a.n === 1 && variantOf(a) === variant)?.arm;
  const best = [...arms].filter((a) => a.n > 1 && variantOf(a) === 'candidate').sort((x, y) => y.n - x.n)[0]?.arm;
  return { baselineSingle: single('baseline'), candidateSingle: single('candidate'), candidateBest: best };
}
