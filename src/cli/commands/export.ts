/**
 * `isobudget export otel RUN… [--gateway DIR] --endpoint URL [--header K=V] [--include-content]`:
 * runs (and a gateway's ledger) as OpenTelemetry traces to an OTLP/HTTP collector — Langfuse,
 * Phoenix, Braintrust, an OpenTelemetry Collector (src/export/otel).
 */
import { resolve } from 'node:path';
import { IsobudgetError } from '../../core/errors.js';
import { loadRun } from '../../analysis/load-run.js';
import { findRunDir } from '../../ledger/find-run.js';
import { parseCommandArgs, unknownSubcommand } from '../args.js';
import { EXIT } from '../exit-codes.js';
import type { CommandSpec } from './spec.js';

const USAGE = `isobudget export otel RUN… [--gateway DIR] --endpoint URL [--header K=V]… [--include-content] [--timeout S]
one trace per unit (run, case, arm, epoch), one span per model call (GenAI semantic conventions + isobudget.* + Langfuse experiment attributes)
exit 0 when the collector took every span, 3 when some did not reach it (the count is printed)`;

export const exportCommand: CommandSpec = {
  summary: 'export otel: runs and gateway calls as OpenTelemetry traces (OTLP/HTTP) for Langfuse, Phoenix or any collector',
  subcommands: ['otel'],
  async run(argv, io) {
    const { positionals, values } = parseCommandArgs('export', argv, {
      endpoint: { type: 'string', value: 'URL', help: 'the OTLP/HTTP endpoint: a base (…/v1/traces is appended) or the full traces URL', example: 'http://127.0.0.1:4318' },
      header: { type: 'string', multiple: true, value: 'K=V', help: 'a request header (repeatable), e.g. Authorization for Langfuse; values are never printed', fallback: 'OTEL_EXPORTER_OTLP_HEADERS', example: 'x-api-key=…' },
      gateway: { type: 'string', value: 'DIR', help: 'also export a gateway\'s ledger (its --data-dir, or the ledger/ folder)', example: '~/.isobudget/gateway' },
      'include-content': { type: 'boolean', help: 'include the paths\' answers (model output text) in the spans; off: counts, ids and outcomes only' },
      timeout: { type: 'string', value: 'S', help: 'wait at most this long for the collector, retries included (seconds)', fallback: '30', example: '10' },
    }, USAGE);
    const [sub, ...runs] = positionals;
    if (sub !== 'otel') throw unknownSubcommand('export', sub, ['otel'], USAGE);
    if (values.endpoint === undefined) throw new IsobudgetError('usage', 'export otel: --endpoint URL is required', { hint: USAGE });
    if (runs.length === 0 && values.gateway === undefined) throw new IsobudgetError('usage', 'export otel: pass one or more RUN_DIRs (or --gateway DIR)', { hint: USAGE });
    const timeoutSeconds = values.timeout === undefined ? 30 : Number(values.timeout);
    if (!Number.isFinite(timeoutSeconds) || timeoutSeconds <= 0) throw new IsobudgetError('usage', `--timeout must be a positive number of seconds, got '${values.timeout}'`);
    const { tracesUrl, parseHeaders } = await import('../../export/otel/endpoint.js');
    const endpoint = tracesUrl(values.endpoint, '--endpoint');
    const headers = parseHeaders(values.header ?? []);
    // Read everything first: a bad run is an error before anything is sent.
    const { runTraces, gatewayTraces } = await import('../../export/otel/run-traces.js');
    const sources = runs.map((run) => runTraces(loadRun(findRunDir(run, { cwd: io.cwd })), values['include-content'] === true));
    if (values.gateway !== undefined) sources.push(gatewayTraces(resolve(io.cwd, values.gateway)));
    const { OtelSink } = await import('../../export/otel/otel-sink.js');
    // Everything is read already: the queue holds all of it, so a large run is never dropped for being large.
    const total = sources.reduce((sum, s) => sum + s.traces.reduce((n, t) => n + 1 + t.calls.length, 0), 0);
    const sink = new OtelSink({ endpoint, headers, timeoutMs: timeoutSeconds * 1000, maxQueue: total + 1 });
    for (const source of sources) for (const unit of source.traces) sink.emit(unit);
    const counts = await sink.close(timeoutSeconds * 1000);
    const traces = sources.reduce((sum, s) => sum + s.traces.length, 0);
    const calls = sources.reduce((sum, s) => sum + s.calls, 0);
    io.stdout.write(`exported ${counts.exported} of ${sink.spans} spans (${traces} traces, ${calls} model calls) to ${displayUrl(endpoint)}\n`);
    if (counts.dropped > 0) {
      io.stderr.write(`isobudget export: ${counts.dropped} span(s) did not reach the collector: ${counts.firstError ?? 'unknown reason'}\n`);
      return EXIT.ledgerWrite;
    }
    return EXIT.ok;
  },
};

/** The URL without query (a token could hide there). */
function displayUrl(url: string): string {
  const parsed = new URL(url);
  return `${parsed.origin}${parsed.pathname}`;
}
