/**
 * One request to the upstream over a keep-alive agent. `answered` resolves with the response
 * as soon as its headers arrive — the body is still streaming — and maps network failures to
 * the status the gateway answers with (502 unreachable, 504 timed out).
 *
 * Three limits, each its own phase: connecting (a fresh socket only), the first byte of the
 * answer once the whole request is out (a non-streamed answer comes whole, so this is the
 * longest), and silence in the middle of an answer (a stream's progress is judged by the
 * relay: keep-alive pings are not progress) — and one over them all, the longest call. `bodySent` tells a failure that may have
 * been billed (the upstream had the whole request) from one that cannot have been.
 */
import { request as httpRequest, Agent as HttpAgent, type ClientRequest, type IncomingMessage, type OutgoingHttpHeaders } from 'node:http';
import { request as httpsRequest, Agent as HttpsAgent } from 'node:https';
import type { UpstreamLocation, UpstreamTarget } from '../upstream-url.js';

export interface UpstreamAgents {
  http: HttpAgent;
  https: HttpsAgent;
}

export function createAgents(): UpstreamAgents {
  const options = { keepAlive: true, maxSockets: Infinity, maxFreeSockets: 256, scheduling: 'lifo' as const };
  return { http: new HttpAgent(options), https: new HttpsAgent(options) };
}

export interface UpstreamTimeouts {
  /** Longest wait for a new connection to the upstream (ms). */
  connectMs: number;
  /** Longest wait, once the request is sent, for the first byte of the answer (ms). */
  firstByteMs: number;
  /**
   * Longest time in the middle of an answer without progress (ms): any byte for a JSON body;
   * for a stream, an event carrying content or usage (keep-alive pings and comments are not).
   */
  idleMs: number;
  /** Longest a call may take from the moment it is sent to the end of its answer, whatever flows (ms). */
  maxCallMs: number;
}

/**
 * Defaults: the official SDKs wait 10 min for an answer; reasoning models can be silent for
 * minutes mid-stream; no honest call runs for 30 min, and a reservation must not be held for ever.
 */
export const DEFAULT_TIMEOUTS: UpstreamTimeouts = { connectMs: 10_000, firstByteMs: 600_000, idleMs: 300_000, maxCallMs: 1_800_000 };

export interface UpstreamCall {
  target: UpstreamTarget;
  url: UpstreamLocation;
  method: string;
  headers: OutgoingHttpHeaders;
  body: Buffer | undefined;
  agents: UpstreamAgents;
  timeouts: UpstreamTimeouts;
}

export class UpstreamFailure extends Error {
  override readonly name = 'UpstreamFailure';
  constructor(readonly status: 502 | 504, message: string) {
    super(message);
  }
}

/** The client went away: the upstream request is abandoned with this. */
export class ClientClosed extends Error {
  override readonly name = 'ClientClosed';
  constructor() {
    super('the client closed the connection');
  }
}

export interface PendingUpstream {
  /** Undefined when the request could not even be made (a header Node refuses to send). */
  request: ClientRequest | undefined;
  answered: Promise<{ request: ClientRequest; response: IncomingMessage }>;
  /** The whole request reached the socket: the upstream may act on it (and bill). */
  bodySent(): boolean;
}

export function sendUpstream(call: UpstreamCall): PendingUpstream {
  const secure = call.target.secure;
  const send = secure ? httpsRequest : httpRequest;
  const { hostname, port, path } = call.url;
  const { connectMs, firstByteMs, idleMs, maxCallMs } = call.timeouts;
  let request: ClientRequest;
  try {
    request = send({ hostname, port, path, method: call.method, headers: call.headers, agent: secure ? call.agents.https : call.agents.http, ...(secure ? { servername: hostname } : {}) });
  } catch (error) {
    // Nothing left: the call can be refused with nothing booked.
    const code = (error as NodeJS.ErrnoException).code ?? 'invalid request';
    return { request: undefined, answered: Promise.reject(new UpstreamFailure(502, `cannot send the request upstream: ${code}`)), bodySent: () => false };
  }
  let sent = false;
  let timer: NodeJS.Timeout | undefined;
  // The overall deadline: it ends the request, or the answer once there is one (the relay then sees the cut and settles).
  let answer: IncomingMessage | undefined;
  const overall = setTimeout(() => {
    const failure = new UpstreamFailure(504, `the call ran past the longest call duration of ${maxCallMs} ms`);
    if (answer === undefined) request.destroy(failure);
    else answer.destroy(failure);
  }, maxCallMs);
  overall.unref();
  request.once('close', () => {
    if (answer === undefined) clearTimeout(overall);
  });
  const limit = (ms: number, message: string): void => {
    clearTimeout(timer);
    timer = setTimeout(() => request.destroy(new UpstreamFailure(504, message)), ms);
  };
  const answered = new Promise<{ request: ClientRequest; response: IncomingMessage }>((resolve, reject) => {
    request.once('socket', (socket) => {
      if (!socket.connecting) return;
      limit(connectMs, `could not connect to the upstream within ${connectMs} ms`);
      socket.once('connect', () => {
        if (!sent) clearTimeout(timer);
      });
    });
    request.once('finish', () => {
      sent = true;
      limit(firstByteMs, `the upstream sent no answer within ${firstByteMs} ms`);
    });
    request.once('response', (response) => {
      clearTimeout(timer);
      answer = response;
      response.once('close', () => clearTimeout(overall));
      request.setTimeout(idleMs, () => response.destroy(new UpstreamFailure(504, `the upstream sent nothing for ${idleMs} ms`)));
      resolve({ request, response });
    });
    // `on`, not `once`: a socket error after the headers must not become an uncaught 'error'
    // (the response reports the cut to the relay; the promise has settled by then).
    request.on('error', (error: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      if (error instanceof UpstreamFailure || error instanceof ClientClosed) reject(error);
      // The message names host and port, never a header: safe to pass on.
      else reject(new UpstreamFailure(502, `cannot reach upstream: ${error.code ?? error.message}`));
    });
  });
  request.end(call.body);
  return { request, answered, bodySent: () => sent };
}

export function closeAgents(agents: UpstreamAgents): void {
  agents.http.destroy();
  agents.https.destroy();
}
