/**
 * Metadata calls (`GET /v1/models`, `POST /v1/messages/count_tokens`): authenticated and
 * forwarded with the gateway's credential, but neither budgeted nor recorded — they
 * generate nothing and bill nothing.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { errorReply } from '../error-reply.js';
import { upstreamRequestHeaders } from '../forward-headers.js';
import type { GatewayContext } from '../gateway-context.js';
import type { Family } from '../routes.js';
import { relayResponse } from './relay.js';
import { sendReply } from './send-reply.js';
import { sendUpstream, UpstreamFailure } from './upstream-request.js';

export async function passThrough(context: GatewayContext, request: IncomingMessage, response: ServerResponse, family: Family, body: Buffer | undefined): Promise<void> {
  let upstream: Awaited<ReturnType<typeof sendUpstream>['answered']>;
  try {
    upstream = await sendUpstream({
      url: context.target.url(request.url ?? '/'),
      method: request.method ?? 'GET',
      headers: upstreamRequestHeaders(request.headers, family, context.upstreamAuth, context.upstreamKey, body?.length),
      body,
      target: context.target,
      agents: context.agents,
      timeouts: context.timeouts,
    }).answered;
  } catch (error) {
    const failure = error instanceof UpstreamFailure ? error : new UpstreamFailure(502, 'cannot reach upstream');
    sendReply(response, errorReply(family, failure.status, `isobudget gateway: ${failure.message}`));
    return;
  }
  await relayResponse({ upstream, client: response, scrub: context.scrub, started: performance.now(), observe: undefined, finish: () => undefined, undecodable: (message) => errorReply(family, 502, message, { code: 'upstream_encoding' }) });
}
