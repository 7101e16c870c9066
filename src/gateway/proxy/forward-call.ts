/**
 * One model call through the gateway: admit it (admit-call.ts), journal its reservation,
 * forward, relay the reply while reading its usage, settle the budget with what was billed,
 * and write the ledger record — then the settlement — before the client sees the end.
 *
 * A client that goes away takes its upstream request with it: the request is aborted, and
 * the reservation is settled with the usage seen so far, else booked whole once the upstream
 * had the request (it may have billed). Only a request that never left is released.
 */
import { randomBytes } from 'node:crypto';
import type { ClientRequest, IncomingMessage, ServerResponse } from 'node:http';
import { finishReason } from '../../core/finish-reason.js';
import type { Settlement } from '../call-book.js';
import { askForStreamUsage } from '../clamp-request.js';
import { attemptNumber, sessionId, single, TAGS_HEADER } from '../client-credentials.js';
import { errorReply } from '../error-reply.js';
import { upstreamRequestHeaders } from '../forward-headers.js';
import type { GatewayContext } from '../gateway-context.js';
import { parseTags, type VirtualKey } from '../keys/virtual-key.js';
import { buildGatewayRecord, type RecordBase, type RecordOutcome } from '../ledger/gateway-record.js';
import type { Family, GenerationProtocol } from '../routes.js';
import { admitCall } from './admit-call.js';
import { relayCall, type SentCall } from './relay-call.js';
import { sendReply } from './send-reply.js';
import { ClientClosed, sendUpstream, UpstreamFailure } from './upstream-request.js';

export interface ModelCall {
  request: IncomingMessage;
  response: ServerResponse;
  protocol: GenerationProtocol;
  family: Family;
  key: VirtualKey;
  body: Record<string, unknown>;
  raw: Buffer;
  /** `raw` decoded (the server parsed it already; decoding twice is a copy per call). */
  text: string;
  /** performance.now() when the request arrived. */
  started: number;
}

/** Call ids: unique across restarts (a random prefix per process) and cheap (a counter). Crash recovery finds records by the prefix (recover-spend.ts). */
const CALL_PREFIX = randomBytes(4).toString('hex');
let callCounter = 0;

/**
 * Two stages: `sendCall` holds the request (body parsed, raw and as text) until the upstream
 * answers with its headers; `relayCall` then runs for as long as the stream lasts — seconds —
 * and holds nothing of the request, so 200 streams in flight do not keep 200 bodies alive for
 * every young-generation collection to copy.
 */
export function forwardCall(context: GatewayContext, call: ModelCall): Promise<void> {
  const leave = context.inFlight.enter(call.key.id);
  return sendCall(context, call)
    .then((sent) => (sent === undefined ? undefined : relayCall(context, sent)))
    .finally(leave);
}

/** Admit (or refuse), journal, clamp and send; undefined when the call was answered here. */
async function sendCall(context: GatewayContext, call: ModelCall): Promise<SentCall | undefined> {
  const { request, response, protocol, family, key, body } = call;
  // Made only if the call has to wait for budget: most calls never need one.
  let clientGone: AbortController | undefined;
  let leftEarly = false;
  let upstreamRequest: ClientRequest | undefined;
  response.once('close', () => {
    leftEarly = !response.writableFinished;
    if (!leftEarly) return;
    clientGone?.abort();
    upstreamRequest?.destroy(new ClientClosed());
  });
  const goneSignal = (): AbortSignal => {
    clientGone ??= new AbortController();
    if (leftEarly) clientGone.abort();
    return clientGone.signal;
  };
  // The closures here outlive this stage: they capture what they need, never `call`.
  const callId = `${CALL_PREFIX}-${(callCounter++).toString(36)}`;
  const base = recordBase(context, call, callId);
  const started = call.started;
  const record = (outcome: RecordOutcome, settlement?: Settlement): void => {
    const entry = buildGatewayRecord(base, outcome, Math.round(performance.now() - started), new Date());
    context.book.finish(entry, settlement);
    context.log?.(`${request.method ?? ''} ${entry.endpoint} ${entry.status ?? '-'} key=${key.id} run=${entry.run_id} case=${entry.case_id} arm=${entry.arm} tokens=${entry.total_tokens ?? (entry.usage_missing ? 'unknown' : '-')} ${entry.latency_ms}ms${entry.error ? ` error=${entry.error}` : ''}`);
  };
  const decided = admitCall(context, { protocol, family, key, body, text: call.text, memoKey: `${key.id}\u0000${base.sessionId ?? ''}`, signal: goneSignal, call: { id: callId, sessionId: base.sessionId } });
  let admitted: Awaited<typeof decided>;
  try {
    admitted = 'ok' in decided ? decided : await decided;
  } catch (error) {
    // The store could not decide (its database is unreachable): a 503 the client may retry, not a 500.
    const trouble = context.book.trouble();
    if (trouble === undefined) throw error;
    sendReply(response, errorReply(family, 503, trouble.message, { code: 'gateway_storage_unavailable', headers: { 'retry-after': '5' } }));
    return undefined;
  }
  const { requested } = admitted;
  if (!admitted.ok) {
    const { reply, record: refusal } = admitted.refusal;
    sendReply(response, reply);
    if (refusal) record({ usage: undefined, finish: refusal.finish, maxTokens: 0, requestedMaxTokens: requested, ttfbMs: undefined, gatewayMs: undefined, status: refusal.status, error: refusal.error, note: refusal.note });
    return undefined;
  }
  const { clamp, reservation, promptTokens, ticket } = admitted.admission;
  const { estimate } = admitted;
  if (leftEarly) {
    // Gone while its prompt was counted or it waited for budget: nothing went out.
    context.budgets.release(key, reservation, ticket);
    return undefined;
  }
  const maxTokens = clamp?.maxTokens ?? requested ?? 0;
  const booked = context.book.reserve({ callId, ticket, keyId: key.id, tokens: reservation, model: base.model, endpoint: base.endpoint, protocol, stream: base.stream, sessionId: base.sessionId, ts: new Date().toISOString(), maxTokens });
  // A book that writes the intent somewhere it must wait for (a distributed worker's database).
  const reserved = typeof booked === 'boolean' ? booked : await booked;
  if (!reserved) {
    context.budgets.release(key, reservation, ticket);
    const trouble = context.book.trouble();
    sendReply(response, errorReply(family, 503, trouble?.message ?? 'isobudget gateway: cannot write to its data dir', { code: 'gateway_storage_unavailable', headers: { 'retry-after': '5' } }));
    return undefined;
  }
  if (leftEarly) {
    // Gone while its intent was written: nothing went out (the intent stays, as a call that may have billed: the safe side).
    context.budgets.release(key, reservation, ticket);
    return undefined;
  }
  const outgoing = askForStreamUsage(protocol, clamp?.body ?? body);
  const payload = outgoing === body ? call.raw : Buffer.from(JSON.stringify(outgoing));
  const clamped = clamp?.clamped === true;
  const note = clamped ? `output cap ${requested ?? 'none'} → ${maxTokens} (budget)` : undefined;
  const pending = sendUpstream({
    url: context.target.url(request.url ?? '/'),
    method: 'POST',
    headers: upstreamRequestHeaders(request.headers, family, context.upstreamAuth, context.upstreamKey, payload.length),
    body: payload,
    target: context.target,
    agents: context.agents,
    timeouts: context.timeouts,
  });
  upstreamRequest = pending.request;
  // The request is in Node's hands now (written, or queued for its socket): what came before was ours.
  const gatewayMs = Math.round((performance.now() - started) * 100) / 100;
  try {
    const upstream = await pending.answered;
    return { upstream, client: response, protocol, key, callId, ticket, reservation, promptEstimate: promptTokens, estimate, model: base.model, started, record, maxTokens, requested, clamped, note, gatewayMs };
  } catch (error) {
    // Once the upstream had the whole request it may have billed: unknown is booked, not released.
    const booked = pending.bodySent() ? reservation : 0;
    if (booked > 0) context.budgets.settle(key, reservation, undefined, ticket);
    else context.budgets.release(key, reservation, ticket);
    const gone = error instanceof ClientClosed;
    const failure = error instanceof UpstreamFailure ? error : new UpstreamFailure(502, 'cannot reach upstream');
    if (!gone) sendReply(response, errorReply(family, failure.status, `isobudget gateway: ${failure.message}`));
    record(
      {
        usage: undefined, finish: finishReason('error', gone ? 'client_closed' : 'upstream_unreachable'), maxTokens, requestedMaxTokens: requested, ttfbMs: undefined, gatewayMs,
        status: gone ? undefined : failure.status, error: gone ? 'the client closed the connection before the upstream answered' : failure.message, note,
        reservedTokens: reservation, bookedTokens: booked,
      },
      { callId, keyId: key.id, booked, over: undefined },
    );
    return undefined;
  }
}

function recordBase(context: GatewayContext, call: ModelCall, callId: string): RecordBase {
  const { request, key, body, protocol } = call;
  let headerTags: Record<string, string> = {};
  try {
    headerTags = parseTags(single(request.headers[TAGS_HEADER]));
  } catch {
    // Malformed call tags are ignored: the key's tags still identify the call.
  }
  return {
    callId,
    keyId: key.id,
    tags: { ...headerTags, ...key.tags },
    sessionId: sessionId(request.headers),
    endpoint: (request.url ?? '/').split('?')[0] ?? '/',
    protocol,
    baseUrl: context.upstreamDisplay,
    model: typeof body['model'] === 'string' ? body['model'] : 'unknown',
    stream: body['stream'] === true,
    attempt: attemptNumber(request.headers),
  };
}

