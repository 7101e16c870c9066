/**
 * A signal that aborts when `parent` aborts or after `timeoutMs`, whichever comes first, with a
 * `clear()` to call when the work settles.
 *
 * Why not `AbortSignal.any([parent, AbortSignal.timeout(ms)])`: in Node 20 the composite holds
 * its sources weakly, and a timeout signal nobody listens to directly can be garbage-collected
 * with its timer — under GC pressure the deadline then never fires (a tool call that hangs
 * forever instead of failing after its limit). It also costs ~25 µs per call in weak-ref
 * bookkeeping and keeps a timer alive for the full `timeoutMs` after the work is done. One
 * controller and one strongly held timer have neither problem.
 */
export interface Deadline {
  signal: AbortSignal;
  clear(): void;
}

export function deadline(parent: AbortSignal, timeoutMs: number, what = 'operation'): Deadline {
  const controller = new AbortController();
  if (parent.aborted) {
    controller.abort(parent.reason);
    return { signal: controller.signal, clear: () => undefined };
  }
  const onAbort = (): void => controller.abort(parent.reason);
  parent.addEventListener('abort', onAbort, { once: true });
  const timer = setTimeout(() => controller.abort(new DOMException(`${what} timed out after ${timeoutMs} ms`, 'TimeoutError')), timeoutMs);
  return {
    signal: controller.signal,
    clear: () => {
      clearTimeout(timer);
      parent.removeEventListener('abort', onAbort);
    },
  };
}
