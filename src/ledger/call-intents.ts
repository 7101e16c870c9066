/**
 * Call intents: one line written (to the kernel, before the request leaves the process) for
 * every model call the runner makes. After a crash — `kill -9`, a power cut, a full disk —
 * an intent with no call record is a request that may have been billed while its outcome
 * was lost; `--resume` books it in interrupted-calls.jsonl as spent with unknown usage
 * (`note: outcome_unknown`), so the manifest counts every request the upstream may have seen.
 */
import { existsSync, readFileSync } from 'node:fs';
import type { CallRecord } from './records.js';
import { LEDGER_SCHEMA_VERSION } from './records.js';

/** The start of one model call (one HTTP attempt). */
export interface CallIntent {
  schema_version: number;
  kind: 'call_start';
  /** Unique within the run; the call record of this attempt carries the same id. */
  call_id: string;
  run_id: string;
  case_id: string;
  arm: string;
  n: number;
  path: number;
  paths: number;
  epoch: number;
  split: CallRecord['split'];
  model: string;
  base_url: string;
  protocol: string;
  role: CallRecord['role'];
  attempt: number;
  max_tokens: number;
  /** The most this call can bill: prompt estimate + max_tokens × paths (tokens). */
  reserved_tokens: number;
  ts: string;
}

export const OUTCOME_UNKNOWN = 'outcome_unknown';

/** Intents on disk (a torn last line — the process died mid-write — is skipped). */
export function readIntents(file: string): CallIntent[] {
  if (!existsSync(file)) return [];
  const intents: CallIntent[] = [];
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (line.trim() === '') continue;
    try {
      const value = JSON.parse(line) as CallIntent;
      if (value?.kind === 'call_start' && typeof value.call_id === 'string') intents.push(value);
    } catch {
      // Only the last line can be torn (appends stop at the first failure).
    }
  }
  return intents;
}

/** The call record of a call whose outcome was lost: spent, usage unknown, never used. */
export function unknownOutcomeRecord(intent: CallIntent): CallRecord {
  return {
    schema_version: LEDGER_SCHEMA_VERSION,
    kind: 'call',
    run_id: intent.run_id,
    case_id: intent.case_id,
    arm: intent.arm,
    n: intent.n,
    path: intent.path,
    paths: intent.paths,
    epoch: intent.epoch,
    split: intent.split,
    model: intent.model,
    base_url: intent.base_url,
    protocol: intent.protocol,
    max_tokens: intent.max_tokens,
    latency_ms: 0,
    attempt: intent.attempt,
    role: intent.role,
    ts: intent.ts,
    prompt_tokens: undefined,
    completion_tokens: undefined,
    total_tokens: undefined,
    cached_tokens: undefined,
    reasoning_tokens: undefined,
    usage_missing: true,
    finish_reason: 'error',
    finish_reason_raw: OUTCOME_UNKNOWN,
    status: undefined,
    error: `outcome unknown: the run stopped while this call was in flight; it may have been billed (at most ${intent.reserved_tokens} tokens)`,
    retried: false,
    note: OUTCOME_UNKNOWN,
    call_id: intent.call_id,
    reserved_tokens: intent.reserved_tokens,
  };
}
