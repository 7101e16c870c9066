/** A quick look at the gateway ledger (`gateway ledger show`): usage per day and per run/arm, from the index. */
import Database from 'better-sqlite3';
import { formatUsdSum } from '../../pricing/format-usd.js';

export interface SummaryRow {
  group: string;
  calls: number;
  tokens: number;
  missing: number;
  failed: number;
  sessions: number;
  /** USD over the priced calls; null when none has a price. */
  cost: number | null;
  /** Calls with usage but no price: `cost` leaves them out. */
  unpriced: number;
}

/** How long the gateway held forwarded calls before sending them upstream (ms). */
export interface GatewayTime {
  calls: number;
  /** Nearest-rank percentiles: values that some call actually took. */
  p50: number;
  p99: number;
  max: number;
}

export interface GatewaySummary {
  days: SummaryRow[];
  arms: SummaryRow[];
  /** Undefined when no record carries `gateway_ms` (none forwarded, or written before it existed). */
  gatewayTime: GatewayTime | undefined;
}

export function summarizeGatewayIndex(indexFile: string): GatewaySummary {
  const db = new Database(indexFile, { readonly: true });
  try {
    const select = (group: string): SummaryRow[] =>
      db.prepare(`SELECT ${group} AS "group", COUNT(*) AS calls, COALESCE(SUM(total_tokens), 0) AS tokens, SUM(usage_missing) AS missing,
        SUM(error IS NOT NULL) AS failed, COUNT(DISTINCT session_id) AS sessions,
        SUM(cost_usd) AS cost, SUM(cost_usd IS NULL AND total_tokens IS NOT NULL) AS unpriced FROM calls GROUP BY 1 ORDER BY 1`).all() as SummaryRow[];
    return { days: select('day'), arms: select(`run_id || ' / ' || arm`), gatewayTime: gatewayTime(db) };
  } finally {
    db.close();
  }
}

function gatewayTime(db: Database.Database): GatewayTime | undefined {
  const calls = db.prepare('SELECT COUNT(*) FROM calls WHERE gateway_ms IS NOT NULL').pluck().get() as number;
  if (calls === 0) return undefined;
  const at = db.prepare('SELECT gateway_ms FROM calls WHERE gateway_ms IS NOT NULL ORDER BY gateway_ms LIMIT 1 OFFSET ?').pluck();
  // Nearest rank: the ⌈q·n⌉-th smallest value.
  const rank = (q: number): number => at.get(Math.max(0, Math.ceil(q * calls) - 1)) as number;
  return { calls, p50: rank(0.5), p99: rank(0.99), max: rank(1) };
}

export function renderSummary(summary: GatewaySummary): string {
  const line = (row: SummaryRow): string => `  ${row.group.padEnd(32)} ${String(row.calls).padStart(7)} calls ${String(row.tokens).padStart(11)} tokens ${String(row.missing).padStart(5)} without usage ${String(row.failed).padStart(5)} failed ${String(row.sessions).padStart(5)} sessions ${formatUsdSum(row.cost, row.unpriced).padStart(11)}${row.unpriced > 0 ? ` (${row.unpriced} calls without a price)` : ''}`;
  const time = summary.gatewayTime;
  const timeLine = time === undefined ? '' : `gateway time before forwarding (its share of time to first byte): p50 ${time.p50} ms, p99 ${time.p99} ms, max ${time.max} ms over ${time.calls} forwarded calls\n`;
  return `by day:\n${summary.days.map(line).join('\n') || '  (no calls)'}\nby run / arm:\n${summary.arms.map(line).join('\n') || '  (no calls)'}\n${timeLine}`;
}
