/**
 * `run --otel-endpoint URL` (or ISOBUDGET_OTEL_ENDPOINT): each committed unit goes out as a
 * trace while the run goes. The run never waits on the collector: emitting only queues
 * (bounded), and at the end the wait is at most FINISH_MS; what did not make it is counted.
 */
import type { Manifest } from '../../ledger/manifest.js';
import type { CallRecord, ResultRecord } from '../../ledger/records.js';
import type { CliIO } from '../io.js';

/** The most the end of a run waits for the collector (ms). */
const FINISH_MS = 3000;

export interface RunOtel {
  onStart(manifest: Manifest): void;
  onUnitCommitted(calls: readonly CallRecord[], result: ResultRecord): void;
  /** Flushes (bounded) and says on stderr what reached the collector. */
  finish(): Promise<void>;
}

export async function startRunOtel(given: { url: string; source: string } | undefined, io: CliIO): Promise<RunOtel | undefined> {
  if (given === undefined) return undefined;
  const { tracesUrl } = await import('../../export/otel/endpoint.js');
  const endpoint = tracesUrl(given.url, given.source);
  const { OtelSink } = await import('../../export/otel/otel-sink.js');
  const { unitTrace } = await import('../../export/otel/unit-spans.js');
  // Headers (keys) come from OTEL_EXPORTER_OTLP_HEADERS, read by the exporter itself: never on a command line.
  const sink = new OtelSink({ endpoint, headers: {}, timeoutMs: FINISH_MS });
  let manifest: Manifest | undefined;
  return {
    onStart: (started) => {
      manifest = started;
    },
    onUnitCommitted: (calls, result) => {
      if (manifest) sink.emit(unitTrace({ manifest, result, calls, includeContent: false }));
    },
    finish: async () => {
      const counts = await sink.close(FINISH_MS);
      const url = new URL(endpoint);
      io.stderr.write(`otel: ${counts.exported} of ${sink.spans} spans sent to ${url.origin}${url.pathname}${counts.dropped > 0 ? `; ${counts.dropped} dropped (${counts.firstError ?? 'unknown reason'}) — the run's results are unaffected; isobudget export otel RUN --endpoint URL sends them again` : ''}\n`);
    },
  };
}
