/**
 * The ledger on a bad disk: writeSync's short writes, a write that fails half-way (ENOSPC),
 * and a failure in the timer's flush. node:fs is wrapped, not replaced: the writer's real
 * code path runs against real files, with the kernel's answers shortened or refused.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, test, vi } from 'vitest';
import { IsobudgetError } from '../core/errors.js';
import { LedgerWriter } from './jsonl-writer.js';
import { readJsonl } from './jsonl-reader.js';
import { LEDGER_SCHEMA_VERSION, type CallRecord, type ResultRecord } from './records.js';
import { runPaths } from './run-dir.js';

const disk = vi.hoisted(() => ({ maxBytes: Number.POSITIVE_INFINITY, failAfterBytes: Number.POSITIVE_INFINITY }));

vi.mock('node:fs', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:fs')>();
  // A disk that accepts at most `maxBytes` per write and runs out after `failAfterBytes`.
  const writeSync = (fd: number, data: string | Uint8Array, offset?: number, length?: number): number => {
    const bytes = typeof data === 'string' ? Buffer.from(data) : Buffer.from(data.buffer, data.byteOffset, data.byteLength);
    const start = typeof data === 'string' ? 0 : offset ?? 0;
    const wanted = typeof data === 'string' ? bytes.length : length ?? bytes.length - start;
    if (disk.failAfterBytes <= 0) throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC', syscall: 'write' });
    const n = Math.min(wanted, disk.maxBytes, disk.failAfterBytes);
    disk.failAfterBytes -= n;
    return actual.writeSync(fd, bytes, start, n);
  };
  return { ...actual, writeSync, default: { ...actual, writeSync } };
});

afterEach(() => {
  disk.maxBytes = Number.POSITIVE_INFINITY;
  disk.failAfterBytes = Number.POSITIVE_INFINITY;
});

function call(caseId: string, callId?: string): CallRecord {
  return {
    schema_version: LEDGER_SCHEMA_VERSION, kind: 'call', run_id: 'r', case_id: caseId, arm: 'baseline_single', n: 1, path: 0, paths: 1, epoch: 0, split: 'val',
    model: 'm', base_url: 'sim://local', protocol: 'sim', prompt_tokens: 10, completion_tokens: 5, total_tokens: 15, cached_tokens: 0, reasoning_tokens: 0,
    usage_missing: false, max_tokens: 64, finish_reason: 'stop', finish_reason_raw: 'stop', latency_ms: 1, attempt: 1, status: 200, role: 'generate',
    error: undefined, retried: false, note: undefined, ts: '2026-01-01T00:00:00Z', ...(callId === undefined ? {} : { call_id: callId }),
  };
}

function result(caseId: string): ResultRecord {
  return {
    schema_version: LEDGER_SCHEMA_VERSION, kind: 'result', run_id: 'r', case_id: caseId, arm: 'baseline_single', variant: 'baseline', n: 1, epoch: 0, split: 'val',
    category: '日期', passed: true, passed_any: true, passes: 1, selected_path: 0, judge_score: undefined,
    paths: [{ path: 0, output: `answer for ${caseId} — ✓`, passed: true, score: 1, finish_reason: 'stop', tokens: 15, error: undefined }],
    prompt_tokens: 10, completion_tokens: 5, total_tokens: 15, calls_missing_usage: 0, calls: 1, retries: 0, budget: 1000,
    budget_exhausted: false, over_budget: false, latency_ms: 1, ts: '2026-01-01T00:00:00Z',
  };
}

function runDir(): ReturnType<typeof runPaths> {
  return runPaths(mkdtempSync(join(tmpdir(), 'ledger-writer-')));
}

test('short writes are completed: every line lands whole', () => {
  const paths = runDir();
  const writer = new LedgerWriter(paths);
  disk.maxBytes = 7; // the kernel takes 7 bytes per write(2) call
  for (let i = 0; i < 5; i += 1) writer.commitUnit([call(`c${i}`)], result(`c${i}`));
  writer.close();
  disk.maxBytes = Number.POSITIVE_INFINITY;
  const results = readJsonl<ResultRecord>(paths.results);
  expect(results.tornTail).toBe(false);
  expect(results.records.map((r) => r.case_id)).toEqual(['c0', 'c1', 'c2', 'c3', 'c4']);
  expect(readJsonl<CallRecord>(paths.calls).records).toHaveLength(5);
});

test('a write that fails half-way leaves no torn line, and nothing is ever appended behind one', () => {
  const paths = runDir();
  const failures: IsobudgetError[] = [];
  const writer = new LedgerWriter(paths, { onFailure: (error) => failures.push(error) });
  writer.commitUnit([call('c0')], result('c0'));
  writer.flush();
  // The disk fills in the middle of the next batch's results (the calls fit).
  const callsBytes = Buffer.byteLength(`${JSON.stringify(call('c1'))}\n`);
  disk.failAfterBytes = callsBytes + 40;
  writer.commitUnit([call('c1')], result('c1'));
  let thrown: unknown;
  try {
    writer.flush();
  } catch (error) {
    thrown = error;
  }
  expect(thrown).toBeInstanceOf(IsobudgetError);
  expect((thrown as IsobudgetError).code).toBe('ledger_write');
  expect((thrown as IsobudgetError).format()).toMatch(new RegExp(`^${paths.results}: write failed`));
  expect((thrown as IsobudgetError).message).toContain('ENOSPC');
  expect((thrown as IsobudgetError).format().split('\n')).toHaveLength(1);
  expect(failures).toHaveLength(1);

  // Space comes back (a transient ENOSPC); a later commit must not append behind half a line.
  disk.failAfterBytes = Number.POSITIVE_INFINITY;
  expect(() => writer.commitUnit([call('c2')], result('c2'))).toThrow(/write failed/);
  try {
    writer.close();
  } catch {
    // close after a failure only releases the files
  }
  const results = readJsonl<ResultRecord>(paths.results);
  expect(results.tornTail).toBe(false);
  expect(results.records.map((r) => r.case_id)).toEqual(['c0']);
  expect(readFileSync(paths.results, 'utf8').endsWith('\n')).toBe(true);
});

test('a failure in the timer flush stops the run through onFailure instead of crashing the process', async () => {
  const paths = runDir();
  const failures: IsobudgetError[] = [];
  const writer = new LedgerWriter(paths, { flushEveryMs: 20, onFailure: (error) => failures.push(error) });
  disk.failAfterBytes = 10;
  writer.commitUnit([call('c0')], result('c0'));
  await new Promise((resolve) => setTimeout(resolve, 80));
  expect(failures.map((f) => f.code)).toEqual(['ledger_write']);
  expect(failures[0]?.location?.file).toBe(paths.calls);
  expect(readFileSync(paths.calls, 'utf8')).toBe('');
  expect(() => writer.close()).not.toThrow();
});

test('a call started but never recorded (aborted in flight) is booked as spent with unknown outcome', () => {
  const paths = runDir();
  const writer = new LedgerWriter(paths, { session: 's0' });
  const start = { run_id: 'r', case_id: 'c0', arm: 'baseline_single', n: 1, path: 0, paths: 1, epoch: 0, split: 'val' as const, model: 'm', base_url: 'sim://local', protocol: 'sim', role: 'generate' as const, attempt: 1, max_tokens: 64 };
  const first = writer.startCall({ ...start, reserved_tokens: 80 });
  const second = writer.startCall({ ...start, case_id: 'c1', reserved_tokens: 90 });
  expect(readFileSync(paths.intents, 'utf8').trim().split('\n')).toHaveLength(2);
  writer.commitUnit([call('c0', first)], result('c0'));
  writer.close();
  const aside = readJsonl<CallRecord>(paths.interrupted).records;
  expect(aside).toHaveLength(1);
  expect(aside[0]).toMatchObject({ call_id: second, case_id: 'c1', note: 'outcome_unknown', usage_missing: true, reserved_tokens: 90 });
  expect(aside[0]?.total_tokens).toBeUndefined();
  expect(writer.counts).toMatchObject({ committed: 1, spent_unused: 1, outcome_unknown: 1, outcome_unknown_max_tokens: 90 });
  // Every intent is accounted for: the file is emptied.
  expect(readFileSync(paths.intents, 'utf8')).toBe('');
});
