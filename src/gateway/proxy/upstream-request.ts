/**
 * One request to the upstream over a keep-alive agent. Resolves with the response as soon
 * as its headers arrive — the body is still streaming — and maps network failures to the
 * status the gateway answers with (502 unreachable, 504 timed out).
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

export interface UpstreamCall {
  target: UpstreamTarget;
  url: UpstreamLocation;
  method: string;
  headers: OutgoingHttpHeaders;
  body: Buffer | undefined;
  agents: UpstreamAgents;
  /** Idle limit on the upstream socket (ms): no byte for this long ends the call. */
  timeoutMs: number;
}

export class UpstreamFailure extends Error {
  override readonly name = 'UpstreamFailure';
  constructor(readonly status: 502 | 504, message: string) {
    super(message);
  }
}

export function sendUpstream(call: UpstreamCall): Promise<{ request: ClientRequest; response: IncomingMessage }> {
  const secure = call.target.secure;
  const send = secure ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const { hostname, port, path } = call.url;
    const request = send({ hostname, port, path, method: call.method, headers: call.headers, agent: secure ? call.agents.https : call.agents.http, ...(secure ? { servername: hostname } : {}) });
    request.setTimeout(call.timeoutMs, () => request.destroy(new UpstreamFailure(504, `upstream sent nothing for ${call.timeoutMs} ms`)));
    request.once('response', (response) => resolve({ request, response }));
    // `on`, not `once`: a socket error after the headers must not become an uncaught 'error'
    // (the response reports the cut to the relay; the promise has settled by then).
    request.on('error', (error: NodeJS.ErrnoException) => {
      if (error instanceof UpstreamFailure) reject(error);
      // The message names host and port, never a header: safe to pass on.
      else reject(new UpstreamFailure(502, `cannot reach upstream: ${error.code ?? error.message}`));
    });
    request.end(call.body);
  });
}

export function closeAgents(agents: UpstreamAgents): void {
  agents.http.destroy();
  agents.https.destroy();
}
