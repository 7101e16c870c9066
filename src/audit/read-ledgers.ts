/**
 * Reads run ledgers (`runs/<id>/results.jsonl` and `calls.jsonl`) and gateway ledgers (any
 * `*.jsonl` of call records under a directory, e.g. the gateway's daily `calls-YYYY-MM-DD.jsonl`)
 * into audit rows, keeping only records inside the window.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { readJsonl } from '../ledger/jsonl-reader.js';
import type { CallRecord, ResultRecord } from '../ledger/records.js';
import { callCostUsd } from '../pricing/call-cost.js';
import type { PriceTable } from '../pricing/price-table.js';
import type { AuditCall, AuditData, AuditTask } from './ledger-rows.js';

export interface ReadLedgersOptions {
  runsDir: string | undefined;
  gatewayDir: string | undefined;
  /** Window [since, until] in ms. */
  since: number;
  until: number;
  /** Costs gateway calls that carry no `cost_usd` (a recorded cost is kept). */
  prices?: PriceTable;
}

export function readLedgers(options: ReadLedgersOptions): AuditData {
  const data: AuditData = { tasks: [], calls: [], runs: 0, gatewayFiles: 0, outside: 0 };
  const inside = (ts: string | undefined): number | undefined => {
    const time = ts === undefined ? Number.NaN : Date.parse(ts);
    if (Number.isFinite(time) && time >= options.since && time <= options.until) return time;
    data.outside += 1;
    return undefined;
  };
  if (options.runsDir && existsSync(options.runsDir)) {
    for (const name of readdirSync(options.runsDir).sort()) {
      const dir = join(options.runsDir, name);
      const results = join(dir, 'results.jsonl');
      // A dangling symlink or a stray file among the runs is not a run.
      if (!statSync(dir, { throwIfNoEntry: false })?.isDirectory() || !statSync(results, { throwIfNoEntry: false })?.isFile()) continue;
      data.runs += 1;
      for (const r of readJsonl<ResultRecord>(results).records) {
        if (r.kind !== 'result') continue;
        const time = inside(r.ts);
        if (time !== undefined) data.tasks.push(taskOfResult(r, time));
      }
      for (const c of readJsonl<CallRecord>(join(dir, 'calls.jsonl')).records) {
        if (c.kind !== 'call' || c.role !== 'generate') continue;
        const time = inside(c.ts);
        if (time !== undefined) data.calls.push(callRow(c, time));
      }
    }
  }
  if (options.gatewayDir && existsSync(options.gatewayDir)) {
    const groups = new Map<string, AuditTask>();
    for (const file of jsonlFiles(options.gatewayDir)) {
      data.gatewayFiles += 1;
      for (const c of readJsonl<CallRecord>(file).records) {
        if (c.kind !== 'call' || (c.role !== 'gateway' && c.role !== 'generate')) continue;
        const time = inside(c.ts);
        if (time === undefined) continue;
        data.calls.push(callRow(c, time));
        const key = `${c.run_id}\u0000${c.case_id}\u0000${c.arm}\u0000${c.epoch ?? 0}`;
        const task = groups.get(key);
        const retried = c.attempt > 1 ? 1 : 0;
        const cost = callCost(c, options.prices);
        if (!task) groups.set(key, { time, source: 'gateway', tokens: c.total_tokens, n: c.n ?? 1, retries: retried, passed: undefined, budget: undefined, split: c.split ?? 'val', costUsd: cost });
        else {
          task.time = Math.min(task.time, time);
          task.tokens = task.tokens === undefined || c.total_tokens === undefined ? undefined : task.tokens + c.total_tokens;
          task.costUsd = task.costUsd === undefined || cost === undefined ? undefined : task.costUsd + cost;
          task.retries += retried;
          task.n = Math.max(task.n, c.n ?? 1);
        }
      }
    }
    data.tasks.push(...groups.values());
  }
  return data;
}

export function taskOfResult(r: ResultRecord, time: number): AuditTask {
  return { time, source: 'run', tokens: r.total_tokens, n: r.n, retries: r.retries, passed: r.passed, budget: r.budget, split: r.split, costUsd: typeof r.cost_usd === 'number' ? r.cost_usd : undefined };
}

/** A failed call with no usage cost nothing known to be billed: 0; a call with usage and no price: unknown. */
function callCost(c: CallRecord, prices: PriceTable | undefined): number | undefined {
  if (typeof c.cost_usd === 'number') return c.cost_usd;
  if (c.total_tokens === undefined && !c.usage_missing) return 0;
  const priced = prices ? callCostUsd(c, prices) : null;
  return priced ?? undefined;
}

export function callRow(c: CallRecord, time: number): AuditCall {
  return { time, completion: c.usage_missing ? undefined : c.completion_tokens, outputs: Math.max(1, c.paths ?? 1) };
}

/**
 * Every regular `*.jsonl` file under `dir`. Sub-folders are walked unless reached through a
 * symlink (no loops); a symlink to a file counts; a dangling one, a FIFO or a device does not
 * (reading a FIFO would block the process for good).
 */
function jsonlFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...jsonlFiles(path));
    else if (entry.name.endsWith('.jsonl') && (entry.isFile() || (entry.isSymbolicLink() && statSync(path, { throwIfNoEntry: false })?.isFile()))) out.push(path);
  }
  return out;
}
