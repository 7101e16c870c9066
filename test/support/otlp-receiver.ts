/**
 * A real OTLP/HTTP traces receiver on 127.0.0.1 for tests: it decodes each
 * ExportTraceServiceRequest with the official generated protobuf definitions
 * (@opentelemetry/otlp-transformer's `generated/root`, from opentelemetry-proto) and answers
 * like a collector. `mode`: `ok` (200), `refuse` (503 every time), `hang` (never answers).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
interface ProtoType {
  decode(bytes: Uint8Array): unknown;
  encode(message: unknown): { finish(): Uint8Array };
  toObject(message: unknown, options: Record<string, unknown>): unknown;
}
const root = require('otlp-transformer-generated/build/src/generated/root.js') as { opentelemetry: { proto: { collector: { trace: { v1: { ExportTraceServiceRequest: ProtoType; ExportTraceServiceResponse: ProtoType } } } } } };
const { ExportTraceServiceRequest, ExportTraceServiceResponse } = root.opentelemetry.proto.collector.trace.v1;

type AnyValue = { stringValue?: string; intValue?: string | number; doubleValue?: number; boolValue?: boolean; arrayValue?: { values?: AnyValue[] } };

export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  kind: number;
  startMs: number;
  endMs: number;
  status: number;
  attributes: Record<string, string | number | boolean | Array<string | number | boolean>>;
  resource: Record<string, unknown>;
  schemaUrl: string;
}

export interface OtlpReceiver {
  url: string;
  spans: ReceivedSpan[];
  requests: number;
  contentTypes: string[];
  headers: IncomingMessage['headers'][];
  close(): Promise<void>;
}

function value(v: AnyValue): string | number | boolean | Array<string | number | boolean> {
  if (v.stringValue !== undefined) return v.stringValue;
  if (v.intValue !== undefined) return Number(v.intValue);
  if (v.doubleValue !== undefined) return v.doubleValue;
  if (v.boolValue !== undefined) return v.boolValue;
  if (v.arrayValue !== undefined) return (v.arrayValue.values ?? []).map((x) => value(x) as string | number | boolean);
  return '';
}

function attributes(list: Array<{ key: string; value: AnyValue }> | undefined): ReceivedSpan['attributes'] {
  return Object.fromEntries((list ?? []).map((a) => [a.key, value(a.value)]));
}

export async function startOtlpReceiver(mode: 'ok' | 'refuse' | 'hang' = 'ok'): Promise<OtlpReceiver> {
  const hung: ServerResponse[] = [];
  const state: OtlpReceiver = { url: '', spans: [], requests: 0, contentTypes: [], headers: [], close: async () => {} };
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      state.requests += 1;
      state.contentTypes.push(String(request.headers['content-type']));
      state.headers.push(request.headers);
      if (mode === 'hang') {
        hung.push(response);
        return;
      }
      if (mode === 'refuse') {
        response.writeHead(503).end();
        return;
      }
      const message = ExportTraceServiceRequest.toObject(ExportTraceServiceRequest.decode(Buffer.concat(chunks)), { longs: String, bytes: String, defaults: false }) as {
        resourceSpans?: Array<{ resource?: { attributes?: Array<{ key: string; value: AnyValue }> }; schemaUrl?: string; scopeSpans?: Array<{ spans?: Array<Record<string, unknown>> }> }>;
      };
      for (const resourceSpans of message.resourceSpans ?? []) {
        const resource = attributes(resourceSpans.resource?.attributes);
        for (const scope of resourceSpans.scopeSpans ?? []) {
          for (const span of scope.spans ?? []) {
            const hex = (b64: unknown) => (typeof b64 === 'string' ? Buffer.from(b64, 'base64').toString('hex') : '');
            state.spans.push({
              traceId: hex(span.traceId), spanId: hex(span.spanId), parentSpanId: hex(span.parentSpanId), name: String(span.name), kind: Number(span.kind ?? 0),
              startMs: Number(BigInt(String(span.startTimeUnixNano)) / 1_000_000n), endMs: Number(BigInt(String(span.endTimeUnixNano)) / 1_000_000n),
              status: Number((span.status as { code?: number } | undefined)?.code ?? 0),
              attributes: attributes(span.attributes as Array<{ key: string; value: AnyValue }>), resource, schemaUrl: resourceSpans.schemaUrl ?? '',
            });
          }
        }
      }
      response.writeHead(200, { 'content-type': 'application/x-protobuf' }).end(Buffer.from(ExportTraceServiceResponse.encode({}).finish()));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  state.close = () => new Promise<void>((resolve) => {
    for (const response of hung) response.destroy();
    server.closeAllConnections();
    server.close(() => resolve());
  });
  return state;
}
