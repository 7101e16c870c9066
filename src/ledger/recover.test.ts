/**
 * `--resume` after a crash: torn last lines are cut (their units re-run), calls of units
 * that never committed are set aside, and call intents with no record (in flight when the
 * process died) are booked as spent with unknown outcome — once, however often recovery runs.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import type { CallIntent } from './call-intents.js';
import { readJsonl } from './jsonl-reader.js';
import { LEDGER_SCHEMA_VERSION, type CallRecord, type ResultRecord } from './records.js';
import { recoverLedger } from './recover.js';
import { runPaths } from './run-dir.js';

const unit = { run_id: 'r', arm: 'baseline_single', n: 1, epoch: 0, split: 'val' as const };

function call(caseId: string, callId: string): CallRecord {
  return {
    schema_version: LEDGER_SCHEMA_VERSION, kind: 'call', ...unit, case_id: caseId, path: 0, paths: 1, model: 'm', base_url: 'sim://local', protocol: 'sim',
    prompt_tokens: 10, completion_tokens: 5, total_tokens: 15, cached_tokens: 0, reasoning_tokens: 0, usage_missing: false, max_tokens: 64, finish_reason: 'stop',
    finish_reason_raw: 'stop', latency_ms: 1, attempt: 1, status: 200, role: 'generate', error: undefined, retried: false, note: undefined, ts: 't', call_id: callId,
  };
}

function result(caseId: string): ResultRecord {
  return {
    schema_version: LEDGER_SCHEMA_VERSION, kind: 'result', ...unit, case_id: caseId, variant: 'baseline', category: undefined, passed: true, passed_any: true, passes: 1,
    selected_path: 0, judge_score: undefined, paths: [], prompt_tokens: 10, completion_tokens: 5, total_tokens: 15, calls_missing_usage: 0, calls: 1, retries: 0,
    budget: 100, budget_exhausted: false, over_budget: false, latency_ms: 1, ts: 't',
  };
}

function intent(caseId: string, callId: string): CallIntent {
  return { schema_version: LEDGER_SCHEMA_VERSION, kind: 'call_start', call_id: callId, ...unit, case_id: caseId, path: 0, paths: 1, model: 'm', base_url: 'sim://local', protocol: 'sim', role: 'generate', attempt: 1, max_tokens: 64, reserved_tokens: 74, ts: 't' };
}

const jsonl = (records: readonly unknown[]): string => records.map((r) => `${JSON.stringify(r)}\n`).join('');

test('torn tails cut, uncommitted calls set aside, in-flight calls booked as unknown outcome — once', () => {
  const paths = runPaths(mkdtempSync(join(tmpdir(), 'recover-')));
  // c1 committed; c2's call landed but its result is torn; c3 was in flight (intent only); c4's intent is torn.
  writeFileSync(paths.results, `${jsonl([result('c1')])}${JSON.stringify(result('c2')).slice(0, 40)}`);
  writeFileSync(paths.calls, `${jsonl([call('c1', 's0-1'), call('c2', 's0-2')])}{"schema_version":1,"kin`);
  writeFileSync(paths.intents, `${jsonl([intent('c1', 's0-1'), intent('c2', 's0-2'), intent('c3', 's0-3')])}{"call_id":"s0-4`);

  const first = recoverLedger(paths);
  expect([...first.committed]).toEqual(['val|c1|baseline_single|0']);
  expect(first).toMatchObject({ orphanedCalls: 1, unknownOutcomeCalls: 1, tornTails: 2 });
  expect(first.counts).toEqual({ committed: 1, spent_unused: 2, outcome_unknown: 1, spent_unused_tokens: 15, outcome_unknown_max_tokens: 74 });
  expect(readJsonl<ResultRecord>(paths.results)).toMatchObject({ tornTail: false, records: [{ case_id: 'c1' }] });
  expect(readJsonl<CallRecord>(paths.calls).records.map((c) => c.call_id)).toEqual(['s0-1']);
  const aside = readJsonl<CallRecord>(paths.interrupted).records;
  expect(aside.map((c) => [c.call_id, c.note ?? 'billed'])).toEqual([['s0-2', 'billed'], ['s0-3', 'outcome_unknown']]);
  expect(readFileSync(paths.intents, 'utf8')).toBe('');

  // A second recovery (a crash during the resumed run's start) changes nothing.
  const second = recoverLedger(paths);
  expect(second.counts).toEqual(first.counts);
  expect(readJsonl<CallRecord>(paths.interrupted).records).toHaveLength(2);
});

test('a crash between setting calls aside and rewriting calls.jsonl does not count them twice', () => {
  const paths = runPaths(mkdtempSync(join(tmpdir(), 'recover-')));
  writeFileSync(paths.results, jsonl([result('c1')]));
  writeFileSync(paths.calls, jsonl([call('c1', 's0-1'), call('c2', 's0-2')]));
  // s0-2 was already appended aside by an earlier, interrupted recovery.
  writeFileSync(paths.interrupted, jsonl([call('c2', 's0-2')]));
  const recovery = recoverLedger(paths);
  expect(readJsonl<CallRecord>(paths.interrupted).records).toHaveLength(1);
  expect(recovery.counts).toMatchObject({ committed: 1, spent_unused: 1 });
});
