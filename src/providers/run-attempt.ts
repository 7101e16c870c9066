/**
 * One HTTP attempt with a hard deadline covering the whole call. The SDK's own `timeout`
 * stops once the response headers arrive, so a server that sends headers and then stalls the
 * body would hang a run; our deadline aborts the body read too. The caller's `request.signal`
 * is linked to the same controller, and flags record which of the two fired.
 */
import { toProviderError } from './http-errors.js';

export interface AttemptOptions {
  /** Per-attempt deadline (ms). */
  timeoutMs: number;
  signal: AbortSignal | undefined;
  /** The API key, scrubbed from any error message. */
  secret: string | undefined;
}

export async function runAttempt<T>(options: AttemptOptions, call: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const controller = new AbortController();
  const outcome = { secret: options.secret, timedOut: false, aborted: false, timeoutMs: options.timeoutMs };
  const onAbort = (): void => {
    outcome.aborted = true;
    controller.abort();
  };
  if (options.signal?.aborted) onAbort();
  else options.signal?.addEventListener('abort', onAbort, { once: true });
  const timer = setTimeout(() => {
    outcome.timedOut = true;
    controller.abort();
  }, options.timeoutMs);
  try {
    return await call(controller.signal);
  } catch (error) {
    throw toProviderError(error, outcome);
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', onAbort);
  }
}
