/**
 * Brings a run directory back to a consistent state before `--resume`: cuts torn tails,
 * keeps only calls whose unit has a committed result, moves the others (billed, but of units
 * that will be re-run) to interrupted-calls.jsonl so no call is counted twice, and books
 * every call intent with no record (in flight when the run died) there as spent with unknown
 * outcome. Every step can be repeated: a crash during recovery loses nothing.
 */
import { existsSync, renameSync, truncateSync, writeFileSync } from 'node:fs';
import { AppendFile } from './append-file.js';
import { readIntents, unknownOutcomeRecord } from './call-intents.js';
import { readJsonl } from './jsonl-reader.js';
import { countSpentUnused, emptyCallCounts, type CallCounts } from './manifest.js';
import type { CallRecord, ResultRecord } from './records.js';
import type { RunPaths } from './run-dir.js';

export interface Recovery {
  results: ResultRecord[];
  committed: Set<string>;
  /** Calls moved aside because their unit never committed. */
  orphanedCalls: number;
  /** Calls that were in flight when the run stopped, booked as spent with unknown outcome. */
  unknownOutcomeCalls: number;
  tornTails: number;
  /** Every call of the run so far, by where its record is. */
  counts: CallCounts;
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

  const interruptedRead = readJsonl<CallRecord>(paths.interrupted, { requireSchemaVersion: true });
  if (interruptedRead.tornTail) {
    truncateSync(paths.interrupted, interruptedRead.validBytes);
    tornTails += 1;
  }
  const idsOf = (calls: readonly CallRecord[]): string[] => calls.flatMap((c) => (c.call_id === undefined ? [] : [c.call_id]));
  const setAside = new Set(idsOf(interruptedRead.records));
  const recorded = new Set([...idsOf(kept), ...idsOf(orphaned), ...setAside]);
  const unknown = readIntents(paths.intents).filter((intent) => !recorded.has(intent.call_id)).map(unknownOutcomeRecord);

  // Append aside first, then rewrite calls.jsonl: a crash in between leaves an orphan in
  // both files, and its call_id keeps it from being set aside twice next time.
  const aside = [...orphaned.filter((c) => c.call_id === undefined || !setAside.has(c.call_id)), ...unknown];
  if (aside.length > 0) {
    const file = new AppendFile(paths.interrupted);
    try {
      file.append(aside.map((c) => `${JSON.stringify(c)}\n`).join(''));
      file.sync();
    } finally {
      file.close();
    }
  }
  if (orphaned.length > 0 || callsRead.tornTail) {
    const temp = `${paths.calls}.tmp-${process.pid}`;
    writeFileSync(temp, kept.map((c) => `${JSON.stringify(c)}\n`).join(''));
    renameSync(temp, paths.calls);
  }
  // Every intent is now accounted for in calls.jsonl or interrupted-calls.jsonl.
  if (existsSync(paths.intents)) truncateSync(paths.intents, 0);

  const counts = emptyCallCounts();
  counts.committed = kept.length;
  countSpentUnused(counts, [...interruptedRead.records, ...aside]);
  return { results, committed, orphanedCalls: orphaned.length, unknownOutcomeCalls: unknown.length, tornTails, counts };
}
