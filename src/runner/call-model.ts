/**
 * One model call with retries. Every attempt — failed or not — becomes a call record. Each
 * attempt holds its own reservation (prompt estimate + max_tokens × paths), settled with billed
 * usage. An attempt whose request may have reached the upstream and whose usage never came
 * back (a timeout, a 5xx, a reset after the write, an unparseable body) may have been billed:
 * it is booked at its reservation (`note: outcome_unknown`, `usage_missing: true`), and a retry
 * needs a new reservation that fits what is left of the budget, or the path ends
 * `budget_exhausted` (issue 20 item 1).
 */
import { finishReason as makeFinish, type UnifiedFinishReason } from '../core/finish-reason.js';
import { ProviderError } from '../core/provider-error.js';
import { deadline } from '../core/deadline.js';
import { saneUsage } from '../core/usage-sanity.js';
import { OUTCOME_UNKNOWN } from '../ledger/call-intents.js';
import type { CallStart } from '../ledger/jsonl-writer.js';
import type { CallRecord } from '../ledger/records.js';
import { LEDGER_SCHEMA_VERSION } from '../ledger/records.js';
import type { GenerateRequest, GenerateResult } from '../providers/spec.js';
import { callCostUsd } from '../pricing/call-cost.js';
import { backoffDelay } from './backoff.js';
import { sleep } from './pool.js';
import type { UnitContext } from './unit-context.js';
import type { PromptEstimate } from '../estimate/prompt-estimator.js';

export interface CallTarget {
  /** What the call is for (DESIGN §4): generate, judge, select or tool. Default generate. */
  role?: CallRecord['role'];
  /** First path served by this call. */
  path: number;
  /** Paths served (native n: n; else 1). */
  paths: number;
  /** Prompt estimate used for the reservation (tokens). */
  promptEstimate: number;
  /** How it was made (the shared estimator): learned from when the call settles, and recorded. */
  estimate?: PromptEstimate;
}

/**
 * `unknownBooked`: tokens booked for attempts of this call whose outcome is unknown (their
 * reservations), which a successful result's usage does not include.
 */
export type CallOutcome =
  | { ok: true; result: GenerateResult; unknownBooked: number }
  | { ok: false; finish: UnifiedFinishReason; error: string; nativeNRejected: boolean; unknownBooked: number };

export async function callModel(context: UnitContext, request: Omit<GenerateRequest, 'signal'>, target: CallTarget, budget = context.budget): Promise<CallOutcome> {
  const { run } = context;
  const reservation = target.promptEstimate + request.maxTokens * target.paths;
  if (request.maxTokens < 1 || !budget.reserve(reservation)) {
    return { ok: false, finish: 'budget_exhausted', error: 'budget exhausted before the call', nativeNRejected: false, unknownBooked: 0 };
  }
  const { maxAttempts } = run.config.retries;
  let unknownBooked = 0;
  for (let attempt = 1; ; attempt += 1) {
    if (run.signal.aborted) {
      budget.release(reservation);
      throw run.signal.reason;
    }
    if (run.limiter) await run.limiter.wait(run.signal, reservation);
    const started = performance.now();
    let outcome: GenerateResult | ProviderError;
    await run.pool.acquire();
    let callId: string;
    try {
      // The intent is on disk before the request leaves: a crash from here on still counts it.
      callId = await run.startCall(intentOf(context, request, target, attempt, reservation));
    } catch (error) {
      run.pool.release();
      budget.release(reservation);
      throw error;
    }
    const attemptDeadline = deadline(run.signal, run.config.provider.timeoutMs, 'attempt');
    try {
      outcome = await run.provider.generate({ ...request, signal: attemptDeadline.signal });
    } catch (error) {
      outcome = toProviderError(error, run.signal);
      // Our per-attempt timeout reaches the provider as an abort; only Ctrl-C is a real one.
      if (outcome.kind === 'aborted' && !run.signal.aborted) {
        outcome = new ProviderError('timeout', `attempt timed out after ${run.config.provider.timeoutMs} ms`);
      }
    } finally {
      attemptDeadline.clear();
      run.pool.release();
    }
    const latencyMs = Math.round(performance.now() - started);
    if (!(outcome instanceof ProviderError)) {
      // Any provider's usage, however it was mapped: negative or fractional counts are unknown.
      const usage = saneUsage(outcome.usage);
      const result = { ...outcome, usage };
      const billed = usage.totalTokens;
      budget.settle(reservation, billed);
      if (target.estimate !== undefined) run.estimator.settle({ baseUrl: run.baseUrl, model: request.model }, target.estimate, usage.inputTokens);
      run.onSpend(context.unit.arm.arm, billed ?? reservation);
      context.calls.push(record(context, request, target, attempt, latencyMs, { result, reservation }, callId));
      return { ok: true, result, unknownBooked };
    }
    const error = outcome;
    if (error.kind === 'aborted' && run.signal.aborted) {
      budget.release(reservation);
      throw run.signal.reason;
    }
    const nativeNRejected = error.kind === 'unsupported' && target.paths > 1;
    // The request may have been billed: its reservation is spent. Provably not: it is free again.
    const unknown = error.mayHaveBilled;
    if (unknown) {
      budget.settle(reservation, reservation);
      unknownBooked += reservation;
      run.onSpend(context.unit.arm.arm, reservation);
    } else budget.release(reservation);
    // A retry is a new request the upstream may bill in full: it needs its own reservation.
    const wanted = error.isRetryable && attempt < maxAttempts;
    const retry = wanted && budget.reserve(reservation);
    // The provider's own pacing applies to the whole run (every worker of a distributed one).
    if (error.status === 429 && error.retryAfterMs !== undefined) await run.limiter?.pause?.(error.retryAfterMs).catch(() => undefined);
    context.calls.push(record(context, request, target, attempt, latencyMs, { error, retried: retry, reservation, unknown }, callId));
    if (wanted && !retry) {
      const booked = unknown ? `its outcome is unknown and its ${reservation}-token reservation is booked; ` : '';
      return { ok: false, finish: 'budget_exhausted', error: `budget exhausted after attempt ${attempt} failed (${error.message}): ${booked}${budget.remaining()} tokens left, a retry needs ${reservation}`, nativeNRejected, unknownBooked };
    }
    if (!retry) return { ok: false, finish: 'error', error: error.message, nativeNRejected, unknownBooked };
    await sleep(backoffDelay(run.config.retries, attempt, run.random(), error.retryAfterMs), run.signal).catch(() => undefined);
  }
}

function toProviderError(error: unknown, runSignal: AbortSignal): ProviderError {
  if (error instanceof ProviderError) return error;
  if (runSignal.aborted) return new ProviderError('aborted', 'run interrupted', { cause: error });
  if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')) {
    return new ProviderError('timeout', `attempt timed out: ${error.message}`, { cause: error });
  }
  // Not a provider failure we know: record it, do not retry a bug.
  const message = error instanceof Error ? error.message : String(error);
  return new ProviderError('invalid_response', `unexpected error: ${message}`, { isRetryable: false, cause: error });
}

function record(
  context: UnitContext,
  request: Omit<GenerateRequest, 'signal'>,
  target: CallTarget,
  attempt: number,
  latencyMs: number,
  outcome: { result: GenerateResult; reservation: number } | { error: ProviderError; retried: boolean; reservation: number; unknown: boolean },
  callId: string,
): CallRecord {
  const { run, unit } = context;
  // One flat literal, keys always in the same order. The former `{ ...base, …13 more keys }`
  // leaves V8 11 (Node 20) on its slow path: ~20 µs per record, and a dictionary-mode object
  // that JSON.stringify then walks slowly too.
  const result = 'result' in outcome ? outcome.result : undefined;
  const error = 'error' in outcome ? outcome.error : undefined;
  const choices = result?.choices ?? [];
  const finish = choices.length === 1 ? choices[0]?.finishReason : undefined;
  const allLength = choices.length > 0 && choices.every((c) => c.finishReason.unified === 'length');
  const failure = error === undefined ? undefined : makeFinish('error', error.kind);
  const unknown = 'unknown' in outcome && outcome.unknown;
  const usageMissing = unknown || (result !== undefined && result.usage.totalTokens === undefined);
  return {
    schema_version: LEDGER_SCHEMA_VERSION,
    kind: 'call',
    run_id: run.runId,
    case_id: unit.evalCase.id,
    arm: unit.arm.arm,
    n: unit.arm.n,
    path: target.path,
    paths: target.paths,
    epoch: unit.epoch,
    split: unit.split,
    model: request.model,
    base_url: run.baseUrl,
    protocol: run.provider.protocol,
    max_tokens: request.maxTokens,
    latency_ms: latencyMs,
    attempt,
    role: target.role ?? 'generate',
    ts: new Date().toISOString(),
    prompt_tokens: result?.usage.inputTokens,
    completion_tokens: result?.usage.outputTokens,
    total_tokens: result?.usage.totalTokens,
    cached_tokens: result?.usage.cachedTokens,
    reasoning_tokens: result?.usage.reasoningTokens,
    // A refused attempt has no usage to miss; one that may have been billed has.
    usage_missing: usageMissing,
    cost_usd: result === undefined ? null : callCostUsd({ model: request.model, prompt_tokens: result.usage.inputTokens, cached_tokens: result.usage.cachedTokens, completion_tokens: result.usage.outputTokens }, run.prices),
    finish_reason: failure?.unified ?? finish?.unified ?? (allLength ? 'length' : 'stop'),
    finish_reason_raw: failure ? failure.raw : (finish?.raw ?? (choices.length > 1 ? choices.map((c) => c.finishReason.raw ?? '').join(',') : undefined)),
    status: result ? result.status : error?.status,
    error: error?.message,
    retried: 'retried' in outcome ? outcome.retried : false,
    note: unknown ? OUTCOME_UNKNOWN : error?.kind === 'unsupported' ? 'native_n_rejected' : undefined,
    call_id: callId,
    reserved_tokens: outcome.reservation,
    booked_tokens: usageMissing ? outcome.reservation : (result?.usage.totalTokens ?? 0),
    estimate_ratio: target.estimate?.ratio,
    estimate_source: target.estimate?.source,
    prompt_estimate: target.estimate === undefined ? undefined : target.promptEstimate,
  };
}

function intentOf(context: UnitContext, request: Omit<GenerateRequest, 'signal'>, target: CallTarget, attempt: number, reserved: number): CallStart {
  const { run, unit } = context;
  return {
    run_id: run.runId, case_id: unit.evalCase.id, arm: unit.arm.arm, n: unit.arm.n, path: target.path, paths: target.paths, epoch: unit.epoch, split: unit.split,
    model: request.model, base_url: run.baseUrl, protocol: run.provider.protocol, role: target.role ?? 'generate', attempt, max_tokens: request.maxTokens, reserved_tokens: reserved,
  };
}
