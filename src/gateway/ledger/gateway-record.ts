/**
 * The gateway's ledger record: the run ledger's CallRecord (role `gateway`), so the same
 * readers, index and analysis apply, plus what only a gateway knows — the virtual key id
 * (never the secret), the client session, the endpoint, time to first byte. Tags of the
 * key fill the run fields; a call made outside a run gets `gateway` defaults.
 */
import type { FinishReason } from '../../core/finish-reason.js';
import type { Usage } from '../../core/usage.js';
import type { PromptEstimate } from '../../estimate/prompt-estimator.js';
import { LEDGER_SCHEMA_VERSION, type CallRecord } from '../../ledger/records.js';

export interface GatewayCallRecord extends CallRecord {
  role: 'gateway';
  /** Virtual key id (public part only). */
  key_id: string;
  /** `x-claude-code-session-id` / `session-id` of the client. */
  session_id: string | undefined;
  /** Request path without the query, e.g. `/v1/messages`. */
  endpoint: string;
  stream: boolean;
  /** Time to the first upstream body byte (ms). */
  ttfb_ms: number | undefined;
  /**
   * Time the gateway held the call before handing it upstream (ms, to 0.01): reading the
   * body, the key, the budget, the clamp. The gateway's own share of the client's time to
   * first byte, measured where no other process's noise reaches it. Undefined when the call
   * was never forwarded.
   */
  gateway_ms: number | undefined;
  /** The output cap the client asked for, before clamping (tokens). */
  requested_max_tokens: number | undefined;
  /** Every tag of the key (and of the request's x-isobudget-tags). */
  tags: Record<string, string>;
  /** The gateway's id of the call: its reservation and settlement in the spend journal carry it too. */
  call_id: string | undefined;
  /** Tokens the call reserved before it went upstream: prompt estimate + cap × choices (tokens). */
  reserved_tokens: number | undefined;
  /** Tokens booked against the key: the bill, or the reservation when the bill is unknown (tokens). Σ over a key = its `spent`. */
  booked_tokens: number | undefined;
  /** Tokens billed beyond the reservation: the upstream billed more than the gateway reserved, and the key was closed (tokens). */
  over_reservation: number | undefined;
  /** `unknown_after_crash`: the gateway stopped before the call ended; it may have been billed, so its reservation is booked. */
  outcome: GatewayOutcome | undefined;
}

export type GatewayOutcome = 'unknown_after_crash';

/** What is known about a call when it arrives. */
export interface RecordBase {
  callId: string | undefined;
  keyId: string;
  tags: Record<string, string>;
  sessionId: string | undefined;
  endpoint: string;
  protocol: string;
  baseUrl: string;
  model: string;
  stream: boolean;
  attempt: number;
}

/** What is known when it ends. */
export interface RecordOutcome {
  usage: Usage | undefined;
  finish: FinishReason;
  maxTokens: number;
  requestedMaxTokens: number | undefined;
  ttfbMs: number | undefined;
  gatewayMs: number | undefined;
  status: number | undefined;
  error: string | undefined;
  note: string | undefined;
  reservedTokens?: number | undefined;
  bookedTokens?: number | undefined;
  overReservation?: number | undefined;
  outcome?: GatewayOutcome | undefined;
  /** The prompt estimate of a budgeted call (the shared estimator). */
  estimate?: PromptEstimate | undefined;
}

const SPLITS = new Set(['train', 'val', 'test', 'regression']);

function intTag(value: string | undefined, fallback: number): number {
  const n = Number(value);
  return value !== undefined && Number.isInteger(n) && n >= 0 ? n : fallback;
}

/** Two parts, not one merged object: records are built on every call's hot path. */
export function buildGatewayRecord(base: RecordBase, outcome: RecordOutcome, latencyMs: number, now: Date): GatewayCallRecord {
  const { tags } = base;
  const { usage } = outcome;
  const split = tags['split'];
  return {
    schema_version: LEDGER_SCHEMA_VERSION,
    kind: 'call',
    run_id: tags['run'] ?? 'gateway',
    case_id: tags['case'] ?? base.sessionId ?? '-',
    arm: tags['arm'] ?? 'gateway',
    n: intTag(tags['n'], 1),
    path: intTag(tags['path'], 0),
    paths: 1,
    epoch: intTag(tags['epoch'], 0),
    split: split !== undefined && SPLITS.has(split) ? (split as CallRecord['split']) : 'val',
    model: base.model,
    base_url: base.baseUrl,
    protocol: base.protocol,
    prompt_tokens: usage?.inputTokens,
    completion_tokens: usage?.outputTokens,
    total_tokens: usage?.totalTokens,
    cached_tokens: usage?.cachedTokens,
    reasoning_tokens: usage?.reasoningTokens,
    // A call that was answered but reported no usage is unknown (invariant 2); a failed or
    // refused call has no usage to miss and counts as a failure instead.
    usage_missing: usage !== undefined && usage.totalTokens === undefined,
    max_tokens: outcome.maxTokens,
    finish_reason: outcome.finish.unified,
    finish_reason_raw: outcome.finish.raw,
    latency_ms: latencyMs,
    attempt: base.attempt,
    status: outcome.status,
    role: 'gateway',
    error: outcome.error,
    retried: false,
    note: outcome.note,
    ts: now.toISOString(),
    key_id: base.keyId,
    session_id: base.sessionId,
    endpoint: base.endpoint,
    stream: base.stream,
    ttfb_ms: outcome.ttfbMs,
    gateway_ms: outcome.gatewayMs,
    requested_max_tokens: outcome.requestedMaxTokens,
    tags: { ...tags },
    call_id: base.callId,
    reserved_tokens: outcome.reservedTokens,
    booked_tokens: outcome.bookedTokens,
    over_reservation: outcome.overReservation,
    outcome: outcome.outcome,
    estimate_ratio: outcome.estimate?.ratio,
    estimate_source: outcome.estimate?.source,
    prompt_estimate: outcome.estimate?.tokens,
  };
}

/** Where records go: daily JSONL files for `isobudget gateway`, memory for a run's executor. */
export interface CallSink {
  write(record: GatewayCallRecord): void;
  close(): Promise<void>;
}
