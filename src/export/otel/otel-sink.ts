/**
 * Unit traces (unit-spans.ts) as OpenTelemetry spans over OTLP/HTTP protobuf, through the
 * official SDK and exporter: one trace per unit, one span per model call. Used by
 * `isobudget export otel` (after a run) and `run --otel-endpoint` (while it goes); in both the
 * collector is outside the run: a queue bounds what waits, and `close` bounds the wait.
 */
import { context, SpanKind, SpanStatusCode, trace, type Tracer } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BasicTracerProvider, type SpanExporter } from '@opentelemetry/sdk-trace-base';
import { TOOL_VERSION } from '../../version.js';
import { LANGFUSE, SCHEMA_URL } from './attributes.js';
import { BoundedProcessor, type ExportCounts } from './bounded-processor.js';
import type { SpanPlan, UnitTrace } from './unit-spans.js';

export interface OtelSinkOptions {
  /** The OTLP/HTTP traces endpoint, e.g. http://127.0.0.1:4318/v1/traces. */
  endpoint: string;
  /** Request headers (e.g. Authorization for Langfuse); never logged. */
  headers: Record<string, string>;
  /** Per export request, retries included (ms). */
  timeoutMs: number;
  maxQueue?: number;
  batchSize?: number;
  delayMs?: number;
  /** Tests: another exporter (the real one is built from endpoint and headers). */
  exporter?: SpanExporter;
}

export class OtelSink {
  private readonly provider: BasicTracerProvider;
  private readonly processor: BoundedProcessor;
  private readonly tracer: Tracer;
  /** Spans handed to the SDK (exported + dropped once closed). */
  spans = 0;

  constructor(options: OtelSinkOptions) {
    const exporter = options.exporter ?? new OTLPTraceExporter({ url: options.endpoint, headers: options.headers, timeoutMillis: options.timeoutMs, concurrencyLimit: 2 });
    this.processor = new BoundedProcessor(exporter, { maxQueue: options.maxQueue ?? 20_000, batchSize: options.batchSize ?? 512, delayMs: options.delayMs ?? 500 });
    this.provider = new BasicTracerProvider({
      resource: resourceFromAttributes({ 'service.name': 'isobudget', 'service.version': TOOL_VERSION }, { schemaUrl: SCHEMA_URL }),
      spanProcessors: [this.processor],
    });
    this.tracer = this.provider.getTracer('isobudget', TOOL_VERSION);
  }

  /** Emits one unit's trace; never throws (a broken span is not worth a run). */
  emit(unit: UnitTrace): void {
    try {
      const root = this.start(unit.root, unit.shared, undefined);
      const rootId = root.spanContext().spanId;
      root.setAttribute(LANGFUSE.experimentItemRootObservationId, rootId);
      const parent = trace.setSpan(context.active(), root);
      for (const call of unit.calls) this.start(call, { ...unit.shared, [LANGFUSE.experimentItemRootObservationId]: rootId }, parent).end(call.endMs);
      root.end(unit.root.endMs);
      this.spans += 1 + unit.calls.length;
    } catch {
      // Counted by nothing: the SDK did not take the span.
    }
  }

  private start(plan: SpanPlan, shared: Record<string, unknown>, parent: ReturnType<typeof trace.setSpan> | undefined) {
    const span = this.tracer.startSpan(plan.name, { kind: plan.kind === 'client' ? SpanKind.CLIENT : SpanKind.INTERNAL, startTime: plan.startMs, attributes: { ...(shared as Record<string, string>), ...plan.attributes } }, parent);
    if (plan.error) span.setStatus({ code: SpanStatusCode.ERROR });
    return span;
  }

  /** Sends what is queued, waiting at most `deadlineMs`; the counts say what reached the collector. */
  async close(deadlineMs: number): Promise<ExportCounts> {
    const counts = await this.processor.close(deadlineMs);
    void this.provider.shutdown().catch(() => undefined);
    return counts;
  }
}
