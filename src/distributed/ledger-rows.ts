/**
 * Ledger records as table rows: the queried fields as columns, the whole record as JSONB
 * (exactly what calls.jsonl / results.jsonl hold, so reading back is lossless).
 */
import type { CallRecord, ResultRecord } from '../ledger/records.js';

export const CALL_COLUMNS = ['run_id', 'call_id', 'unit_key', 'attempt_id', 'state', 'case_id', 'arm', 'epoch', 'role', 'model', 'prompt_tokens', 'completion_tokens', 'total_tokens', 'cost_usd', 'latency_ms', 'status', 'usage_missing', 'ts', 'record', 'paths'] as const;

export type CallState = 'in_flight' | 'committed' | 'interrupted';

export function callRow(record: CallRecord, unitKey: string, attemptId: string, state: CallState, redact: (text: string) => string = (t) => t): unknown[] {
  return [
    record.run_id, record.call_id, unitKey, attemptId, state, record.case_id, record.arm, record.epoch, record.role, record.model,
    record.prompt_tokens ?? null, record.completion_tokens ?? null, record.total_tokens ?? null, typeof record.cost_usd === 'number' ? record.cost_usd : null,
    Math.round(record.latency_ms), record.status ?? null, record.usage_missing, record.ts, redact(JSON.stringify(record)), Math.max(1, record.paths ?? 1),
  ];
}

export const RESULT_COLUMNS = ['run_id', 'case_id', 'arm', 'epoch', 'split', 'seq', 'attempt_id', 'variant', 'n', 'passed', 'total_tokens', 'cost_usd', 'latency_ms', 'ts', 'record'] as const;

export function resultRow(record: ResultRecord, seq: number, attemptId: string, redact: (text: string) => string = (t) => t): unknown[] {
  return [
    record.run_id, record.case_id, record.arm, record.epoch, record.split, seq, attemptId, record.variant, record.n, record.passed,
    record.total_tokens ?? null, typeof record.cost_usd === 'number' ? record.cost_usd : null, Math.round(record.latency_ms), record.ts, redact(JSON.stringify(record)),
  ];
}

/** The secrets scrubber every row passes through (the same last line of defence as the JSONL writer). */
export function makeRedactor(secrets: readonly string[]): (text: string) => string {
  const real = secrets.filter((s) => s.length >= 8);
  if (real.length === 0) return (text) => text;
  return (text) => real.reduce((acc, secret) => acc.split(secret).join('[redacted]'), text);
}
