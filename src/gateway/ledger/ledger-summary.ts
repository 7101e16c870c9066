/** A quick look at the gateway ledger (`gateway ledger show`): usage per day and per run/arm, from the index. */
import Database from 'better-sqlite3';

export interface SummaryRow {
  group: string;
  calls: number;
  tokens: number;
  missing: number;
  failed: number;
  sessions: number;
}

export function summarizeGatewayIndex(indexFile: string): { days: SummaryRow[]; arms: SummaryRow[] } {
  const db = new Database(indexFile, { readonly: true });
  try {
    const select = (group: string): SummaryRow[] =>
      db.prepare(`SELECT ${group} AS "group", COUNT(*) AS calls, COALESCE(SUM(total_tokens), 0) AS tokens, SUM(usage_missing) AS missing,
        SUM(error IS NOT NULL) AS failed, COUNT(DISTINCT session_id) AS sessions FROM calls GROUP BY 1 ORDER BY 1`).all() as SummaryRow[];
    return { days: select('day'), arms: select(`run_id || ' / ' || arm`) };
  } finally {
    db.close();
  }
}

export function renderSummary(summary: { days: SummaryRow[]; arms: SummaryRow[] }): string {
  const line = (row: SummaryRow): string => `  ${row.group.padEnd(32)} ${String(row.calls).padStart(7)} calls ${String(row.tokens).padStart(11)} tokens ${String(row.missing).padStart(5)} without usage ${String(row.failed).padStart(5)} failed ${String(row.sessions).padStart(5)} sessions`;
  return `by day:\n${summary.days.map(line).join('\n') || '  (no calls)'}\nby run / arm:\n${summary.arms.map(line).join('\n') || '  (no calls)'}\n`;
}
