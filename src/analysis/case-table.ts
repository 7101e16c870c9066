/**
 * Per-case aggregates of each arm, pure: the unit of pairing. Epochs of a case are averaged
 * (a case is one draw from the population, its epochs are repeated measures of it).
 */
import type { ResultRecord } from '../ledger/records.js';

export interface CaseRow {
  /** Product outcome: the selected path passed (mean over epochs). */
  pass: number;
  /** Any path passed (oracle pass@N). */
  passAny: number;
  /** Billed tokens (mean over epochs); undefined when any epoch lacked usage. */
  tokens: number | undefined;
  latencyMs: number;
  category: string | undefined;
  cluster: string | undefined;
}

export type ArmCases = Map<string, CaseRow>;

export function caseTable(results: readonly ResultRecord[]): Map<string, ArmCases> {
  const groups = new Map<string, Map<string, ResultRecord[]>>();
  for (const result of results) {
    let arm = groups.get(result.arm);
    if (!arm) groups.set(result.arm, (arm = new Map()));
    const list = arm.get(result.case_id);
    if (list) list.push(result);
    else arm.set(result.case_id, [result]);
  }
  const table = new Map<string, ArmCases>();
  for (const [arm, cases] of groups) {
    const rows: ArmCases = new Map();
    for (const [caseId, records] of cases) rows.set(caseId, aggregate(records));
    table.set(arm, rows);
  }
  return table;
}

function aggregate(records: ResultRecord[]): CaseRow {
  const count = records.length;
  let pass = 0;
  let passAny = 0;
  let tokens: number | undefined = 0;
  let latency = 0;
  for (const r of records) {
    pass += r.passed ? 1 : 0;
    passAny += r.passed_any ? 1 : 0;
    tokens = tokens === undefined || r.total_tokens === undefined ? undefined : tokens + r.total_tokens;
    latency += r.latency_ms;
  }
  const first = records[0] as ResultRecord;
  return {
    pass: pass / count,
    passAny: passAny / count,
    tokens: tokens === undefined ? undefined : tokens / count,
    latencyMs: latency / count,
    category: first.category,
    cluster: first.cluster,
  };
}

/** Case ids present in every given arm, in a stable order (paired analysis needs them all). */
export function sharedCases(table: Map<string, ArmCases>, arms: readonly string[]): string[] {
  const [first, ...rest] = arms.map((arm) => table.get(arm));
  if (!first || rest.some((r) => r === undefined)) return [];
  return [...first.keys()].filter((id) => rest.every((r) => r?.has(id))).sort();
}

/** One column over the given cases. */
export function column(cases: ArmCases, ids: readonly string[], pick: (row: CaseRow) => number): Float64Array {
  const out = new Float64Array(ids.length);
  ids.forEach((id, i) => {
    const row = cases.get(id);
    out[i] = row ? pick(row) : Number.NaN;
  });
  return out;
}
