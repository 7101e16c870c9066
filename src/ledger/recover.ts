/**
 * Brings a run directory back to a consistent state before `--resume`: cuts torn tails,
 * keeps only calls whose unit has a committed result, and moves the others (billed, but
 * of units that will be re-run) to interrupted-calls.jsonl so no call is counted twice.
 */
import { appendFileSync, truncateSync } from 'node:fs';
import { writeFileSync, renameSync } from 'node:fs';
import { readJsonl } from './jsonl-reader.js';
import type { CallRecord, ResultRecord } from './records.js';
import type { RunPaths } from './run-dir.js';

export interface Recovery {
  results: ResultRecord[];
  committed: Set<string>;
  /** Calls moved aside because their unit never committed. */
  orphanedCalls: number;
  tornTails: number;
}

export function recordUnitKey(record: Pick<ResultRecord, 'split' | 'case_id' | 'arm' | 'epoch'>): string {
  return `${record.split}|${record.case_id}|${record.arm}|${record.epoch}`;
}

export function recoverLedger(paths: RunPaths): Recovery {
  let tornTails = 0;
  const resultsRead = readJsonl<ResultRecord>(paths.results, { requireSchemaVersion: true });
  if (resultsRead.tornTail) {
    truncateSync(paths.results, resultsRead.validBytes);
    tornTails += 1;
  }
  const committed = new Set<string>();
  const results: ResultRecord[] = [];
  for (const result of resultsRead.records) {
    const key = recordUnitKey(result);
    if (committed.has(key)) continue; // a unit is committed once; a duplicate cannot add information
    committed.add(key);
    results.push(result);
  }
  const callsRead = readJsonl<CallRecord>(paths.calls, { requireSchemaVersion: true });
  if (callsRead.tornTail) tornTails += 1;
  const kept: CallRecord[] = [];
  const orphaned: CallRecord[] = [];
  for (const call of callsRead.records) (committed.has(recordUnitKey(call)) ? kept : orphaned).push(call);
  if (orphaned.length > 0 || callsRead.tornTail) {
    if (orphaned.length > 0) appendFileSync(paths.interrupted, orphaned.map((c) => `${JSON.stringify(c)}\n`).join(''));
    const temp = `${paths.calls}.tmp-${process.pid}`;
    writeFileSync(temp, kept.map((c) => `${JSON.stringify(c)}\n`).join(''));
    renameSync(temp, paths.calls);
  }
  return { results, committed, orphanedCalls: orphaned.length, tornTails };
}
