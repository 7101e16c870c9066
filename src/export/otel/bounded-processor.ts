/**
 * A span processor that can never slow or fail a run: ended spans wait in a bounded queue,
 * go out in batches through the exporter (whose own retries and back-off handle a collector
 * that is slow or briefly down), one batch in flight at a time. When the queue is full a span
 * is dropped and counted; a batch the exporter gives up on is counted as dropped too. `close`
 * waits for the queue at most `deadlineMs`, then reports what did not make it.
 */
import type { Context } from '@opentelemetry/api';
import { ExportResultCode } from '@opentelemetry/core';
import type { ReadableSpan, Span, SpanExporter, SpanProcessor } from '@opentelemetry/sdk-trace-base';

export interface ExportCounts {
  /** Spans the collector accepted. */
  exported: number;
  /** Spans that did not reach it: queue full, the exporter gave up, or still queued at the deadline. */
  dropped: number;
  /** The first reason an export failed (never a header value). */
  firstError: string | undefined;
}

export interface BoundedProcessorOptions {
  /** Spans held at most; beyond, new spans are dropped (spans). */
  maxQueue: number;
  /** Spans per export request. */
  batchSize: number;
  /** Wait this long for a batch to fill before sending a partial one (ms). */
  delayMs: number;
}

export class BoundedProcessor implements SpanProcessor {
  private readonly queue: ReadableSpan[] = [];
  private inFlight: Promise<void> | undefined;
  private inFlightSize = 0;
  private timer: NodeJS.Timeout | undefined;
  private closed = false;
  readonly counts: ExportCounts = { exported: 0, dropped: 0, firstError: undefined };

  constructor(private readonly exporter: SpanExporter, private readonly options: BoundedProcessorOptions) {}

  onStart(_span: Span, _context: Context): void {}

  onEnd(span: ReadableSpan): void {
    if (this.closed || this.queue.length >= this.options.maxQueue) {
      this.counts.dropped += 1;
      return;
    }
    this.queue.push(span);
    if (this.queue.length >= this.options.batchSize) this.pump();
    else if (this.timer === undefined) {
      this.timer = setTimeout(() => {
        this.timer = undefined;
        this.pump();
      }, this.options.delayMs);
      // A pending batch never keeps the process alive on its own.
      this.timer.unref();
    }
  }

  /** Sends the next batch unless one is in flight (then it follows when that one settles). */
  private pump(): void {
    if (this.inFlight !== undefined || this.queue.length === 0) return;
    const batch = this.queue.splice(0, this.options.batchSize);
    this.inFlightSize = batch.length;
    this.inFlight = new Promise<void>((resolve) => {
      try {
        this.exporter.export(batch, (result) => {
          // Past close's deadline the batch was already counted as dropped.
          if (this.closed) return resolve();
          if (result.code === ExportResultCode.SUCCESS) this.counts.exported += batch.length;
          else {
            this.counts.dropped += batch.length;
            this.counts.firstError ??= result.error?.message ?? 'export failed';
          }
          resolve();
        });
      } catch (error) {
        this.counts.dropped += batch.length;
        this.counts.firstError ??= error instanceof Error ? error.message : String(error);
        resolve();
      }
    }).then(() => {
      this.inFlight = undefined;
      this.inFlightSize = 0;
      if (!this.closed) this.pump();
    });
  }

  /** Everything queued so far, sent as soon as possible (bounded by close's deadline, not here). */
  async forceFlush(): Promise<void> {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    this.pump();
    while (this.inFlight !== undefined) await this.inFlight;
  }

  /** Flushes for at most `deadlineMs`; spans still queued or in flight then are counted as dropped. */
  async close(deadlineMs: number): Promise<ExportCounts> {
    let timeout: NodeJS.Timeout | undefined;
    const deadline = new Promise<'late'>((resolve) => {
      timeout = setTimeout(() => resolve('late'), deadlineMs);
      timeout.unref();
    });
    const outcome = await Promise.race([this.forceFlush().then(() => 'done' as const), deadline]);
    clearTimeout(timeout);
    this.closed = true;
    if (outcome === 'late') {
      this.counts.dropped += this.queue.length + this.inFlightSize;
      this.counts.firstError ??= `the collector did not answer within ${deadlineMs} ms`;
      this.queue.length = 0;
    }
    // The exporter's shutdown may wait on a hung request: never past the deadline.
    void this.exporter.shutdown().catch(() => undefined);
    return { ...this.counts };
  }

  async shutdown(): Promise<void> {
    await this.close(0);
  }
}
