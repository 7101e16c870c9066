/**
 * The second stage of a model call: relay the upstream's answer while reading its usage, then
 * settle the reservation with what was billed — a bill above it closes the key — and write the
 * record and the settlement before the client's response ends.
 */
import type { ClientRequest, IncomingMessage, ServerResponse } from 'node:http';
import { finishReason, type FinishReason } from '../../core/finish-reason.js';
import type { Settlement } from '../call-book.js';
import { single } from '../client-credentials.js';
import { errorReply } from '../error-reply.js';
import type { GatewayContext } from '../gateway-context.js';
import type { VirtualKey } from '../keys/virtual-key.js';
import type { RecordOutcome } from '../ledger/gateway-record.js';
import type { GenerationProtocol } from '../routes.js';
import { observeJsonBody } from '../usage/body-observer.js';
import { errorMessageOf, parseJsonSafe, type CallObservation } from '../usage/observation.js';
import { SseDecoder } from '../usage/sse-decoder.js';
import { createStreamObserver } from '../usage/stream-observer.js';
import { relayResponse, type RelayEnd } from './relay.js';
import type { PromptEstimate } from '../../estimate/prompt-estimator.js';

/** A call that went upstream and got an answer (headers, the body still coming). */
export interface SentCall {
  upstream: { request: ClientRequest; response: IncomingMessage };
  client: ServerResponse;
  protocol: GenerationProtocol;
  key: VirtualKey;
  callId: string;
  /** The store's name for the reservation, if it keeps one (Postgres). */
  ticket: string | undefined;
  reservation: number;
  /** The prompt estimate the reservation holds (tokens; 0 for a key without budget): what a bill's prompt is compared with. */
  promptEstimate: number;
  /** How it was made; undefined for a key without budget. */
  estimate: PromptEstimate | undefined;
  /** The body's model (what the estimator learns the ratio for, with the upstream). */
  model: string;
  started: number;
  record: (outcome: RecordOutcome, settlement?: Settlement) => void;
  maxTokens: number;
  requested: number | undefined;
  clamped: boolean;
  note: string | undefined;
  gatewayMs: number;
}

export async function relayCall(context: GatewayContext, sent: SentCall): Promise<void> {
  const { upstream, protocol, key, reservation, record, maxTokens, requested, clamped, gatewayMs } = sent;
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
    progressMs: context.timeouts.idleMs,
    undecodable: (message) => errorReply(protocol === 'anthropic-messages' ? 'anthropic' : 'openai', 502, message, { code: 'upstream_encoding' }),
    finish: (end: RelayEnd) => {
      const seen: CallObservation | undefined = ok ? (observe?.result() ?? observeJsonBody(protocol, end.body?.toString('utf8') ?? '')) : undefined;
      const billed = seen?.usage.totalTokens;
      if (ok && sent.estimate !== undefined) context.estimator.settle({ baseUrl: context.upstreamDisplay, model: sent.model }, sent.estimate, seen?.usage.inputTokens);
      if (ok && billed !== undefined && seen?.responseId !== undefined) context.responses.record(seen.responseId, billed);
      // An answered call is booked at its bill, else (usage never seen) at its reservation; an error answer billed nothing.
      const over = ok ? context.budgets.settle(key, reservation, billed, sent.ticket) : undefined;
      if (!ok) context.budgets.release(key, reservation, sent.ticket);
      const booked = ok ? billed ?? reservation : 0;
      const upstreamError = ok ? seen?.error : errorMessageOf(parseJsonSafe(end.body?.toString('utf8') ?? '')) ?? `HTTP ${status}`;
      const error = end.cut ?? (upstreamError === undefined ? undefined : context.scrub.text(`upstream ${status}: ${upstreamError}`));
      const note = over === undefined ? sent.note : `billed ${over} tokens over its reservation of ${reservation}: key ${key.id} closed (over_reservation)`;
      record(
        {
          usage: ok ? seen?.usage : undefined,
          finish: finishOf(seen?.finish, ok && end.completed, clamped),
          maxTokens, requestedMaxTokens: requested, ttfbMs: end.ttfbMs === undefined ? undefined : Math.round(end.ttfbMs), gatewayMs, status, error, note,
          reservedTokens: reservation, bookedTokens: booked, overReservation: over, estimate: sent.estimate,
        },
        { callId: sent.callId, keyId: key.id, booked, over },
      );
      if (over !== undefined) context.log?.(`key ${key.id} closed: call ${sent.callId} billed ${billed ?? '?'} tokens, ${over} over its reservation of ${reservation}`);
    },
  });
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
