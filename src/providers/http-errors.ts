/**
 * Maps whatever an SDK call threw into the one error class the runner understands,
 * `ProviderError`, shared by the three real protocols. The runner retries on `isRetryable`
 * and records every attempt, so the kind must be precise: a 429 is not a timeout, a reset is
 * not an unparseable body.
 *
 * Every message is scrubbed of the API key (DESIGN §1, invariant 6) and the SDK error is not
 * kept as `cause`: its message, body and headers may echo the key and would surface again in
 * `util.inspect` or a log line.
 */
import * as OpenAISdk from 'openai';
import { ProviderError, parseRetryAfter } from '../core/provider-error.js';
import { isRecord } from './json-fields.js';
import { scrubSecret } from './scrub-secret.js';

export interface AttemptOutcome {
  /** The API key to scrub from messages. */
  secret: string | undefined;
  /** Our own per-attempt deadline fired. */
  timedOut: boolean;
  /** The caller's `request.signal` fired. */
  aborted: boolean;
  /** The deadline, for the message (ms). */
  timeoutMs: number;
}

/**
 * Error classes of the SDKs in use. OpenAI's are always here; a provider whose SDK is loaded
 * lazily (Anthropic) registers its own when it loads, so importing this module does not pull
 * in every SDK.
 */
interface SdkErrorClasses {
  APIError: abstract new (...args: never[]) => Error & { status?: number | undefined; headers?: Headers | undefined };
  APIUserAbortError: abstract new (...args: never[]) => Error;
  APIConnectionError: abstract new (...args: never[]) => Error;
  APIConnectionTimeoutError: abstract new (...args: never[]) => Error;
}
const SDKS: SdkErrorClasses[] = [OpenAISdk];
export function registerSdkErrors(classes: SdkErrorClasses): void {
  if (!SDKS.includes(classes)) SDKS.push(classes);
}
const isAny = (error: unknown, pick: (sdk: SdkErrorClasses) => abstract new (...args: never[]) => Error): boolean => SDKS.some((sdk) => error instanceof pick(sdk));

/** Upstream text can be a whole HTML error page; a message needs only its start. */
const MAX_UPSTREAM_TEXT = 500;

/** Socket-level failures, wherever they sit in the `cause` chain (undici nests them). */
const CONNECTION_CODES = new Set([
  'ECONNRESET',
  'ECONNREFUSED',
  'ECONNABORTED',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'UND_ERR_SOCKET',
  'UND_ERR_CLOSED',
]);

/**
 * Codes that mean no connection was made, so no request left: the upstream cannot have billed.
 * A reset, a broken pipe or a closed socket can come after the request was written: unknown.
 */
const NEVER_CONNECTED_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EAI_NONAME', 'EHOSTUNREACH', 'ENETUNREACH']);

export function toProviderError(error: unknown, outcome: AttemptOutcome): ProviderError {
  if (error instanceof ProviderError) return rescrub(error, outcome.secret);
  const clean = (text: string): string => truncate(scrubSecret(text, outcome.secret));

  // A status line arrived: that is the most precise account, even if a deadline fired later.
  const status = statusOf(error);
  if (status !== undefined) {
    const headers = headersOf(error);
    const retryAfterMs = parseRetryAfter(headers);
    // The SDK message starts with the status already ("429 Rate limit…").
    const upstream = messageOf(error).replace(new RegExp(`^${status}\\s*`), '');
    return new ProviderError('http', `HTTP ${status} from upstream: ${clean(upstream)}`, {
      status,
      ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
    });
  }
  // Our deadline and the caller's signal abort the same controller; the flags say which.
  if (outcome.timedOut) return new ProviderError('timeout', `request timed out after ${outcome.timeoutMs} ms`);
  if (outcome.aborted || isUserAbort(error)) {
    return new ProviderError('aborted', 'request aborted by the caller', { isRetryable: false });
  }
  if (isConnectionTimeout(error)) return new ProviderError('timeout', `request timed out after ${outcome.timeoutMs} ms`);
  if (isConnectionError(error)) {
    return new ProviderError('connection', `connection error: ${clean(describeChain(error))}`, { mayHaveBilled: requestMayHaveLeft(error) });
  }
  // After the headers arrived, errors come from reading or parsing the body, unwrapped.
  if (hasConnectionCause(error)) {
    return new ProviderError('connection', `connection lost while reading the response: ${clean(describeChain(error))}`);
  }
  if (isAbortLike(error)) {
    return new ProviderError('connection', `response body aborted: ${clean(describeChain(error))}`);
  }
  // SyntaxError from JSON.parse, or the SDK tripping over a body of the wrong shape.
  return new ProviderError('invalid_response', `unparseable response body: ${clean(describeChain(error))}`, {
    status: 200,
  });
}

/** A ProviderError built elsewhere still must not carry the key. */
function rescrub(error: ProviderError, secret: string | undefined): ProviderError {
  const message = scrubSecret(error.message, secret);
  if (message === error.message) return error;
  return new ProviderError(error.kind, message, {
    ...(error.status === undefined ? {} : { status: error.status }),
    ...(error.retryAfterMs === undefined ? {} : { retryAfterMs: error.retryAfterMs }),
    isRetryable: error.isRetryable,
    mayHaveBilled: error.mayHaveBilled,
  });
}

function isUserAbort(error: unknown): boolean {
  return isAny(error, (sdk) => sdk.APIUserAbortError);
}

function isConnectionTimeout(error: unknown): boolean {
  return isAny(error, (sdk) => sdk.APIConnectionTimeoutError);
}

function isConnectionError(error: unknown): boolean {
  return isAny(error, (sdk) => sdk.APIConnectionError);
}

function statusOf(error: unknown): number | undefined {
  if (!isAny(error, (sdk) => sdk.APIError)) return undefined;
  return typeof (error as { status?: unknown }).status === 'number' ? (error as { status: number }).status : undefined;
}

function headersOf(error: unknown): Headers | undefined {
  if (!isAny(error, (sdk) => sdk.APIError)) return undefined;
  return (error as { headers?: Headers }).headers;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function* causeChain(error: unknown): Generator<unknown> {
  let current: unknown = error;
  // Bounded: a cyclic `cause` must not hang the error path.
  for (let depth = 0; depth < 8 && current !== undefined && current !== null; depth += 1) {
    yield current;
    current = isRecord(current) || current instanceof Error ? (current as { cause?: unknown }).cause : undefined;
  }
}

/**
 * Whether a connection error can have followed a request that left whole. node-http-fetch
 * says so itself (`requestSent`: the body was handed to the socket); otherwise only the
 * codes that mean no connection was ever made prove it did not.
 */
function requestMayHaveLeft(error: unknown): boolean {
  for (const link of causeChain(error)) {
    const sent = isRecord(link) || link instanceof Error ? (link as { requestSent?: unknown }).requestSent : undefined;
    if (typeof sent === 'boolean') return sent;
  }
  for (const link of causeChain(error)) {
    const code = isRecord(link) || link instanceof Error ? (link as { code?: unknown }).code : undefined;
    if (typeof code === 'string' && NEVER_CONNECTED_CODES.has(code)) return false;
  }
  return true;
}

function hasConnectionCause(error: unknown): boolean {
  for (const link of causeChain(error)) {
    const code = isRecord(link) || link instanceof Error ? (link as { code?: unknown }).code : undefined;
    if (typeof code === 'string' && CONNECTION_CODES.has(code)) return true;
    // undici reports a body cut short as TypeError('terminated').
    if (link instanceof TypeError && link.message === 'terminated') return true;
  }
  return false;
}

function isAbortLike(error: unknown): boolean {
  return error instanceof Error && error.name === 'AbortError';
}

/** "fetch failed: other side closed (UND_ERR_SOCKET)" — the useful part is usually a cause. */
function describeChain(error: unknown): string {
  const parts: string[] = [];
  for (const link of causeChain(error)) {
    if (!(link instanceof Error)) continue;
    const code = (link as { code?: unknown }).code;
    const text = link.message.replace(/\.$/, '');
    parts.push(typeof code === 'string' ? `${text} (${code})` : text);
  }
  return parts.length > 0 ? parts.join(': ') : String(error);
}

function truncate(text: string): string {
  return text.length > MAX_UPSTREAM_TEXT ? `${text.slice(0, MAX_UPSTREAM_TEXT)}…` : text;
}
