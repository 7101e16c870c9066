/**
 * One model call through the gateway: estimate the prompt, reserve budget (or deny with a
 * 429 both real clients stop on), clamp the output cap, forward, relay the reply while
 * reading its usage, settle the budget with what was billed, and write the ledger record.
 */
import type { ClientRequest, IncomingMessage, ServerResponse } from 'node:http';
import { finishReason, type FinishReason } from '../../core/finish-reason.js';
import { attemptNumber, sessionId, single, TAGS_HEADER } from '../client-credentials.js';
import { askForStreamUsage, requestedCap } from '../clamp-request.js';
import { budgetSpentReply, errorReply } from '../error-reply.js';
import { upstreamRequestHeaders } from '../forward-headers.js';
import type { GatewayContext } from '../gateway-context.js';
import { parseTags, type VirtualKey } from '../keys/virtual-key.js';
import { buildGatewayRecord, type RecordBase, type RecordOutcome } from '../ledger/gateway-record.js';
import { estimateBodyTokens } from '../prompt-estimate.js';
import type { Family, GenerationProtocol } from '../routes.js';
import { observeJsonBody } from '../usage/body-observer.js';
import { errorMessageOf, parseJsonSafe, type CallObservation } from '../usage/observation.js';
import { SseDecoder } from '../usage/sse-decoder.js';
import { createStreamObserver } from '../usage/stream-observer.js';
import { relayResponse, type RelayEnd } from './relay.js';
import { sendReply } from './send-reply.js';
import { sendUpstream, UpstreamFailure } from './upstream-request.js';

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

/** A call that went upstream and got an answer (headers, the body still coming). */
interface SentCall {
  upstream: { request: ClientRequest; response: IncomingMessage };
  client: ServerResponse;
  protocol: GenerationProtocol;
  key: VirtualKey;
  reservation: number;
  started: number;
  record: (outcome: RecordOutcome) => void;
  maxTokens: number;
  requested: number | undefined;
  clamped: boolean;
  note: string | undefined;
  gatewayMs: number;
}

/** Estimate, admit (or deny), clamp and send; undefined when the call was answered here. */
async function sendCall(context: GatewayContext, call: ModelCall): Promise<SentCall | undefined> {
  const { request, response, protocol, family, key, body } = call;
  // Made only if the call has to wait for budget: most calls never need one.
  let clientGone: AbortController | undefined;
  let leftEarly = false;
  response.once('close', () => {
    leftEarly = !response.writableFinished;
    if (leftEarly) clientGone?.abort();
  });
  const goneSignal = (): AbortSignal => {
    clientGone ??= new AbortController();
    if (leftEarly) clientGone.abort();
    return clientGone.signal;
  };
  // The closures here outlive this stage: they capture what they need, never `call`.
  const base = recordBase(context, call);
  const started = call.started;
  const record = (outcome: RecordOutcome): void => {
    const entry = buildGatewayRecord(base, outcome, Math.round(performance.now() - started), new Date());
    context.sink.write(entry);
    context.log?.(`${request.method ?? ''} ${entry.endpoint} ${entry.status ?? '-'} key=${key.id} run=${entry.run_id} case=${entry.case_id} arm=${entry.arm} tokens=${entry.total_tokens ?? (entry.usage_missing ? 'unknown' : '-')} ${entry.latency_ms}ms${entry.error ? ` error=${entry.error}` : ''}`);
  };
  const estimate = key.budget === undefined ? 0 : estimateBodyTokens(body, call.text, context.exactPrompt);
  const promptTokens = typeof estimate === 'number' ? estimate : await estimate;
  const admitted = context.budgets.admit({ key, protocol, body, promptTokens, signal: goneSignal });
  const admission = 'ok' in admitted ? admitted : await admitted;
  const requested = requestedCap(protocol, body);
  if (!admission.ok) {
    sendReply(response, budgetSpentReply(family, admission.detail));
    record({ usage: undefined, finish: finishReason('budget_exhausted', 'budget_spent'), maxTokens: 0, requestedMaxTokens: requested, ttfbMs: undefined, gatewayMs: undefined, status: 429, error: `budget spent: ${admission.detail}`, note: 'denied by the gateway' });
    return undefined;
  }
  const { clamp, reservation } = admission;
  const outgoing = askForStreamUsage(protocol, clamp?.body ?? body);
  const payload = outgoing === body ? call.raw : Buffer.from(JSON.stringify(outgoing));
  const maxTokens = clamp?.maxTokens ?? requested ?? 0;
  const clamped = clamp?.clamped === true;
  const note = clamped ? `output cap ${requested ?? 'none'} → ${maxTokens} (budget)` : undefined;
  const sending = sendUpstream({
    url: context.target.url(request.url ?? '/'),
    method: 'POST',
    headers: upstreamRequestHeaders(request.headers, family, context.upstreamAuth, context.upstreamKey, payload.length),
    body: payload,
    target: context.target,
    agents: context.agents,
    timeoutMs: context.upstreamTimeoutMs,
  });
  // The request is in Node's hands now (written, or queued for its socket): what came before was ours.
  const gatewayMs = Math.round((performance.now() - started) * 100) / 100;
  try {
    const upstream = await sending;
    return { upstream, client: response, protocol, key, reservation, started, record, maxTokens, requested, clamped, note, gatewayMs };
  } catch (error) {
    context.budgets.release(key, reservation);
    const failure = error instanceof UpstreamFailure ? error : new UpstreamFailure(502, 'cannot reach upstream');
    sendReply(response, errorReply(family, failure.status, `isobudget gateway: ${failure.message}`));
    record({ usage: undefined, finish: finishReason('error', 'upstream_unreachable'), maxTokens, requestedMaxTokens: requested, ttfbMs: undefined, gatewayMs, status: failure.status, error: failure.message, note });
    return undefined;
  }
}

/** Relay the answer while reading its usage; settle the budget and write the record at its end. */
async function relayCall(context: GatewayContext, sent: SentCall): Promise<void> {
  const { upstream, protocol, key, reservation, record, maxTokens, requested, clamped, note, gatewayMs } = sent;
  const status = upstream.response.statusCode ?? 502;
  const ok = status >= 200 && status < 300;
  const contentType = single(upstream.response.headers['content-type']) ?? '';
  const sse = contentType.includes('text/event-stream');
  // Streams pass through chunk by chunk; a JSON body is read whole (it is small, and one write beats several) and scrubbed.
  const observe = ok && sse ? streamObserver(protocol) : undefined;
  await relayResponse({
    upstream,
    client: sent.client,
    scrub: context.scrub,
    started: sent.started,
    observe: observe?.push,
    finish: (end: RelayEnd) => {
      const seen: CallObservation | undefined = ok ? (observe?.result() ?? observeJsonBody(protocol, end.body?.toString('utf8') ?? '')) : undefined;
      const billed = seen?.usage.totalTokens;
      if (ok) context.budgets.settle(key, reservation, billed);
      else context.budgets.release(key, reservation);
      const upstreamError = ok ? seen?.error : errorMessageOf(parseJsonSafe(end.body?.toString('utf8') ?? '')) ?? `HTTP ${status}`;
      const error = end.cut ?? (upstreamError === undefined ? undefined : context.scrub.text(`upstream ${status}: ${upstreamError}`));
      record({
        usage: ok ? seen?.usage : undefined,
        finish: finishOf(seen?.finish, ok && end.completed, clamped),
        maxTokens, requestedMaxTokens: requested, ttfbMs: end.ttfbMs === undefined ? undefined : Math.round(end.ttfbMs), gatewayMs, status, error, note,
      });
    },
  });
}

function recordBase(context: GatewayContext, call: ModelCall): RecordBase {
  const { request, key, body, protocol } = call;
  let headerTags: Record<string, string> = {};
  try {
    headerTags = parseTags(single(request.headers[TAGS_HEADER]));
  } catch {
    // Malformed call tags are ignored: the key's tags still identify the call.
  }
  return {
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

/** A cut the budget imposed that the model ran into is budget exhaustion, as in the runner. */
function finishOf(seen: FinishReason | undefined, completed: boolean, clamped: boolean): FinishReason {
  if (!completed) return seen?.unified === 'stop' ? seen : finishReason('error', seen?.raw);
  const finish = seen ?? finishReason('error', undefined);
  return finish.unified === 'length' && clamped ? finishReason('budget_exhausted', finish.raw) : finish;
}

function streamObserver(protocol: GenerationProtocol): { push: (chunk: Buffer) => void; result: () => CallObservation } {
  const stream = createStreamObserver(protocol);
  const decoder = new SseDecoder(stream.marker, stream.literals);
  return {
    push: (chunk) => {
      for (const event of decoder.push(chunk)) stream.onEvent(event);
    },
    result: () => {
      for (const event of decoder.end()) stream.onEvent(event);
      return stream.result();
    },
  };
}
