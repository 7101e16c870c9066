/**
 * A failed model call. `isRetryable` follows the usual contract (408/409/429/5xx, timeouts,
 * connection errors, unparseable bodies); `retryAfterMs` carries the server's Retry-After.
 * `mayHaveBilled` says whether the request can have reached the upstream whole: then the
 * attempt's outcome is unknown and its reservation is booked (issue 20 item 1).
 */
export type ProviderErrorKind = 'http' | 'timeout' | 'connection' | 'invalid_response' | 'aborted' | 'unsupported';

export class ProviderError extends Error {
  override readonly name = 'ProviderError';
  readonly kind: ProviderErrorKind;
  /** HTTP status, when a response arrived. */
  readonly status: number | undefined;
  readonly retryAfterMs: number | undefined;
  readonly isRetryable: boolean;
  /**
   * The request may have left the process whole, so the upstream may have billed it: a
   * timeout, a 5xx, a reset or a body cut after the request was written, an unparseable body.
   * False only where it provably never left (connection refused, DNS failure, the request not
   * yet written) or the upstream refused it (4xx).
   */
  readonly mayHaveBilled: boolean;

  constructor(
    kind: ProviderErrorKind,
    message: string,
    options: { status?: number; retryAfterMs?: number; isRetryable?: boolean; mayHaveBilled?: boolean; cause?: unknown } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.kind = kind;
    this.status = options.status;
    this.retryAfterMs = options.retryAfterMs;
    this.isRetryable = options.isRetryable ?? defaultRetryable(kind, options.status);
    this.mayHaveBilled = options.mayHaveBilled ?? defaultMayHaveBilled(kind, options.status);
  }
}

export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 409 || status === 429 || status >= 500;
}

/** A status line means the upstream answered: 5xx may follow work it billed, 4xx refused the request. */
function defaultMayHaveBilled(kind: ProviderErrorKind, status: number | undefined): boolean {
  if (kind === 'http') return status !== undefined && status >= 500;
  return kind === 'timeout' || kind === 'connection' || kind === 'invalid_response';
}

function defaultRetryable(kind: ProviderErrorKind, status: number | undefined): boolean {
  if (kind === 'http') return status !== undefined && isRetryableStatus(status);
  return kind === 'timeout' || kind === 'connection' || kind === 'invalid_response';
}

/** Parses Retry-After (seconds or HTTP date) and retry-after-ms into milliseconds. */
export function parseRetryAfter(headers: { get(name: string): string | null } | undefined, now = Date.now()): number | undefined {
  if (!headers) return undefined;
  const ms = headers.get('retry-after-ms');
  if (ms !== null && ms.trim() !== '' && Number.isFinite(Number(ms))) return Math.max(0, Number(ms));
  const value = headers.get('retry-after');
  if (value === null || value.trim() === '') return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}
