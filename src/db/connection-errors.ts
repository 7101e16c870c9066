/**
 * Which Postgres failures are the connection's, not the statement's: a restart, a cut session
 * (pg_terminate_backend), a full connection table. Team-mode processes back off and go on
 * after these; any other error is the statement's and is reported.
 */

/** Connection-class failures: ECONNREFUSED/RESET, SQLSTATE 08xxx, admin shutdown 57P0x, too many connections 53300, pool timeouts. */
export function isConnectionError(error: unknown): boolean {
  const code = (error as { code?: string } | undefined)?.code ?? '';
  if (/^(ECONN|EPIPE|ETIMEDOUT|EHOSTUNREACH|ENOTFOUND)/.test(code) || code.startsWith('08') || code.startsWith('57P') || code === '53300') return true;
  const message = error instanceof Error ? error.message : '';
  return /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Connection ended|not queryable/.test(message);
}

/** SQLSTATE 53300: the server's max_connections is used up. */
export function isTooManyConnections(error: unknown): boolean {
  return (error as { code?: string } | undefined)?.code === '53300';
}

/** Back-off before the next try after `failures` failures in a row (ms): 250 ms doubling, at most `maxMs`. */
export function backoffMs(failures: number, maxMs = 5000): number {
  const base = Math.min(maxMs, 250 * 2 ** Math.max(0, failures - 1));
  // Jitter: a fleet that lost the server together must not come back in lock step.
  return Math.round(base * (0.75 + Math.random() * 0.5));
}

/**
 * Runs `work` until it gets through a lost connection: each connection-class failure waits a
 * back-off and tries again (the work must be idempotent); any other error is thrown.
 */
export async function retryConnectionLoss<T>(
  work: () => Promise<T>,
  options: { signal?: AbortSignal; onLost?: (error: unknown, failures: number) => void; maxFailures?: number } = {},
): Promise<T> {
  for (let failures = 1; ; failures += 1) {
    try {
      return await work();
    } catch (error) {
      if (!isConnectionError(error) || options.signal?.aborted || failures >= (options.maxFailures ?? 60)) throw error;
      options.onLost?.(error, failures);
      await new Promise((resolve) => setTimeout(resolve, backoffMs(failures)));
    }
  }
}
