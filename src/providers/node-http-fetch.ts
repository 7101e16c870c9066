/**
 * A small `fetch` for the provider SDKs over node:http(s) with a keep-alive agent.
 *
 * Node's built-in fetch (undici) wraps every request and response body in WHATWG streams and
 * makes them transferable; at hundreds of calls per second that is most of the harness's CPU.
 * The SDKs only need: status, ok, url, headers.get/entries, text(), json(), and a body to cancel
 * (never streamed here: the providers make non-streaming calls). Buffered bodies suffice.
 * Connection errors are thrown as `TypeError('fetch failed', { cause })`, like undici, so the
 * SDKs and `toProviderError` classify them exactly as before, with `requestSent` added: whether
 * the whole request had been handed to the socket when the connection failed.
 */
import http from 'node:http';
import https from 'node:https';

const httpAgent = new http.Agent({ keepAlive: true, maxSockets: Infinity, scheduling: 'lifo' });
const httpsAgent = new https.Agent({ keepAlive: true, maxSockets: Infinity, scheduling: 'lifo' });

class LiteResponse {
  readonly ok: boolean;
  readonly bodyUsed = false;
  readonly redirected = false;
  readonly type = 'basic';
  constructor(
    private readonly buffer: Buffer,
    readonly status: number,
    readonly statusText: string,
    readonly headers: Headers,
    readonly url: string,
  ) {
    this.ok = status >= 200 && status < 300;
  }
  get body(): null {
    return null;
  }
  async text(): Promise<string> {
    return this.buffer.toString('utf8');
  }
  async json(): Promise<unknown> {
    return JSON.parse(this.buffer.toString('utf8'));
  }
  async arrayBuffer(): Promise<ArrayBuffer> {
    return this.buffer.buffer.slice(this.buffer.byteOffset, this.buffer.byteOffset + this.buffer.byteLength) as ArrayBuffer;
  }
}

function abortError(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException('This operation was aborted', 'AbortError');
}

export function nodeHttpFetch(input: string | URL | Request, init: RequestInit = {}): Promise<Response> {
  const url = new URL(typeof input === 'string' || input instanceof URL ? input : input.url);
  const signal = init.signal ?? undefined;
  const headers: Record<string, string> = {};
  new Headers(init.headers).forEach((value, name) => {
    headers[name] = value;
  });
  const body = init.body;
  if (body !== undefined && body !== null && typeof body !== 'string' && !(body instanceof Uint8Array)) {
    return Promise.reject(new TypeError('nodeHttpFetch: only string or Uint8Array bodies are supported'));
  }
  if (body !== undefined && body !== null) headers['content-length'] = String(Buffer.byteLength(body));
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(abortError(signal));
    const transport = url.protocol === 'https:' ? https : http;
    const request = transport.request(url, { method: init.method ?? 'GET', headers, agent: url.protocol === 'https:' ? httpsAgent : httpAgent });
    const onAbort = (): void => {
      request.destroy();
      reject(abortError(signal as AbortSignal));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    const done = (): void => signal?.removeEventListener('abort', onAbort);
    // Handed whole to the socket: from here on the upstream may have the request (and bill it).
    let sent = false;
    request.on('finish', () => {
      sent = true;
    });
    request.on('error', (error) => {
      done();
      // `requestSent` lets toProviderError tell "never left" (refused, DNS, a reused socket
      // closed before the write) from "left, then lost" (a reset while the upstream worked).
      reject(Object.assign(new TypeError('fetch failed', { cause: error }), { requestSent: sent }));
    });
    request.on('response', (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('error', (error) => {
        done();
        reject(new TypeError('terminated', { cause: error }));
      });
      response.on('aborted', () => {
        done();
        reject(new TypeError('terminated', { cause: Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' }) }));
      });
      response.on('end', () => {
        done();
        const responseHeaders = new Headers();
        const raw = response.rawHeaders;
        for (let i = 0; i < raw.length; i += 2) responseHeaders.append(raw[i] as string, raw[i + 1] as string);
        resolve(new LiteResponse(Buffer.concat(chunks), response.statusCode ?? 0, response.statusMessage ?? '', responseHeaders, url.href) as unknown as Response);
      });
    });
    request.end(body ?? undefined);
  });
}
