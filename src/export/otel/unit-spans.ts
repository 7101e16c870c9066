/**
 * One unit of a run (case, arm, epoch) as the spans of one trace, pure: a root span for the
 * unit and one child span per model call, with the GenAI, isobudget and Langfuse attributes
 * (names in attributes.ts). Nothing here knows OpenTelemetry's SDK: otel-sink.ts turns plans
 * into spans.
 *
 * Langfuse groups the traces of one arm as an experiment run: experiment id `<run>/<arm>`,
 * dataset id the run's dataset hash (the same cases compare across runs), item id the case id.
 * Content (the paths' answers) goes out only with `includeContent`; error text never does
 * (an upstream error body may quote a request), only its class (`error.type`).
 */
import type { Manifest } from '../../ledger/manifest.js';
import type { CallRecord, ResultRecord } from '../../ledger/records.js';
import { GEN_AI, ISOBUDGET, LANGFUSE } from './attributes.js';

export type AttributeValue = string | number | boolean | string[];
export type Attributes = Record<string, AttributeValue>;

export interface SpanPlan {
  name: string;
  /** Epoch milliseconds. */
  startMs: number;
  endMs: number;
  attributes: Attributes;
  /** true: the span failed (OTel status ERROR). */
  error: boolean;
  /** OTel span kind: the unit is internal work, a model call is a client request. */
  kind: 'internal' | 'client';
}

export interface UnitTrace {
  root: SpanPlan;
  calls: SpanPlan[];
  /** Attributes every span of the trace carries (Langfuse reads experiment context per span). */
  shared: Attributes;
}

export interface UnitInput {
  manifest: Pick<Manifest, 'run_id' | 'experiment' | 'datasets' | 'split'> & { config?: Pick<Manifest['config'], 'budget' | 'variants'> };
  /** The unit's result; absent for gateway calls that no result names. */
  result: ResultRecord | undefined;
  calls: readonly CallRecord[];
  includeContent: boolean;
}

export function unitTrace(input: UnitInput): UnitTrace {
  const { manifest, result, calls } = input;
  const first = calls[0];
  const caseId = result?.case_id ?? first?.case_id ?? 'unknown';
  const arm = result?.arm ?? first?.arm ?? 'unknown';
  const epoch = result?.epoch ?? first?.epoch ?? 0;
  const n = result?.n ?? first?.n ?? 1;
  const budget = manifest.config?.budget.totalTokensPerCase as number | null | undefined;
  const variant = result?.variant ?? (arm.startsWith('candidate') ? 'candidate' : arm.startsWith('baseline') ? 'baseline' : undefined);
  const variantId = variant === undefined ? undefined : manifest.config?.variants[variant].id;
  const dataset = manifest.datasets[manifest.split]?.sha256 ?? manifest.experiment;
  const shared: Attributes = compact({
    [ISOBUDGET.runId]: manifest.run_id,
    [ISOBUDGET.caseId]: caseId,
    [ISOBUDGET.arm]: arm,
    [ISOBUDGET.n]: n,
    [ISOBUDGET.epoch]: epoch,
    [ISOBUDGET.budget]: typeof budget === 'number' && Number.isFinite(budget) ? budget : undefined,
    [LANGFUSE.sessionId]: manifest.run_id,
    [LANGFUSE.experimentId]: `${manifest.run_id}/${arm}`,
    [LANGFUSE.experimentName]: `${manifest.experiment} ${arm}${variantId ? ` (${variantId})` : ''} — ${manifest.run_id}`,
    [LANGFUSE.experimentDescription]: `isobudget run ${manifest.run_id}, arm ${arm} (n=${n})${typeof budget === 'number' ? `, B=${budget} tokens per case` : ', B unknown'}`,
    [LANGFUSE.experimentDatasetId]: dataset,
    [LANGFUSE.experimentItemId]: caseId,
  });
  const callSpans = calls.map((call) => callSpan(call, result, input.includeContent));
  const startMs = Math.min(...callSpans.map((s) => s.startMs), result ? Date.parse(result.ts) - result.latency_ms : Number.POSITIVE_INFINITY);
  const endMs = Math.max(...callSpans.map((s) => s.endMs), result ? Date.parse(result.ts) : Number.NEGATIVE_INFINITY);
  const output = input.includeContent && result ? result.paths[result.selected_path ?? 0]?.output : undefined;
  const root: SpanPlan = {
    name: `isobudget ${arm} ${caseId}${epoch > 0 ? ` epoch ${epoch}` : ''}`,
    startMs: Number.isFinite(startMs) ? startMs : Date.now(),
    endMs: Number.isFinite(endMs) ? endMs : Date.now(),
    kind: 'internal',
    error: result === undefined ? callSpans.some((s) => s.error) : result.paths.some((p) => p.finish_reason === 'error'),
    attributes: compact({
      [LANGFUSE.traceName]: `${manifest.experiment} ${arm}`,
      [LANGFUSE.observationType]: 'span',
      [LANGFUSE.traceTags]: ['isobudget', arm, ...(variant ? [variant] : [])],
      [`${LANGFUSE.traceMetadata}.run_id`]: manifest.run_id,
      [`${LANGFUSE.traceMetadata}.arm`]: arm,
      [`${LANGFUSE.traceMetadata}.case_id`]: caseId,
      [ISOBUDGET.experiment]: manifest.experiment,
      [ISOBUDGET.variant]: variant,
      [ISOBUDGET.variantId]: variantId,
      [ISOBUDGET.split]: result?.split ?? first?.split,
      [ISOBUDGET.category]: result?.category,
      [ISOBUDGET.passed]: result?.passed,
      [ISOBUDGET.passedAny]: result?.passed_any,
      [ISOBUDGET.totalTokens]: result?.total_tokens,
      [ISOBUDGET.costUsd]: result?.cost_usd ?? undefined,
      [ISOBUDGET.latencyMs]: result?.latency_ms,
      [LANGFUSE.traceOutput]: output,
    }),
  };
  return { root, calls: callSpans, shared };
}

function callSpan(call: CallRecord, result: ResultRecord | undefined, includeContent: boolean): SpanPlan {
  const operation = call.role === 'tool' ? 'execute_tool' : 'chat';
  const endMs = Date.parse(call.ts);
  const reservation = call.reserved_tokens ?? (call.prompt_estimate === undefined ? undefined : call.prompt_estimate + call.max_tokens);
  const failed = call.finish_reason === 'error' || call.error !== undefined;
  const output = includeContent && result ? result.paths.filter((p) => p.path >= call.path && p.path < call.path + call.paths).map((p) => ({ role: 'assistant', parts: [{ type: 'text', content: p.output }], finish_reason: p.finish_reason })) : [];
  return {
    name: `${operation} ${call.model}`,
    startMs: endMs - call.latency_ms,
    endMs,
    kind: 'client',
    error: failed,
    attributes: compact({
      [GEN_AI.operationName]: operation,
      [GEN_AI.providerName]: providerName(call.protocol),
      [GEN_AI.requestModel]: call.model,
      [GEN_AI.responseModel]: call.model,
      [GEN_AI.requestMaxTokens]: call.max_tokens > 0 ? call.max_tokens : undefined,
      // Unknown is not zero: absent, with isobudget.usage_missing.
      [GEN_AI.usageInputTokens]: call.prompt_tokens,
      [GEN_AI.usageOutputTokens]: call.completion_tokens,
      [GEN_AI.usageCacheReadInputTokens]: call.cached_tokens !== undefined && call.cached_tokens > 0 ? call.cached_tokens : undefined,
      [GEN_AI.responseFinishReasons]: [call.finish_reason_raw ?? call.finish_reason],
      [GEN_AI.serverAddress]: serverAddress(call.base_url),
      [GEN_AI.errorType]: failed ? (call.status !== undefined ? String(call.status) : call.finish_reason === 'error' ? 'error' : 'scorer') : undefined,
      [GEN_AI.outputMessages]: output.length > 0 ? JSON.stringify(output) : undefined,
      [LANGFUSE.observationType]: 'generation',
      [LANGFUSE.observationOutput]: output.length > 0 ? (output.length === 1 ? (output[0]?.parts[0]?.content ?? '') : JSON.stringify(output.map((o) => o.parts[0]?.content ?? ''))) : undefined,
      [ISOBUDGET.path]: call.path,
      [ISOBUDGET.paths]: call.paths,
      [ISOBUDGET.role]: call.role,
      [ISOBUDGET.attempt]: call.attempt,
      [ISOBUDGET.retried]: call.retried,
      [ISOBUDGET.status]: call.status,
      [ISOBUDGET.usageMissing]: call.usage_missing,
      [ISOBUDGET.totalTokens]: call.total_tokens,
      [ISOBUDGET.reservation]: reservation,
      [ISOBUDGET.costUsd]: call.cost_usd ?? undefined,
      [ISOBUDGET.latencyMs]: call.latency_ms,
      [ISOBUDGET.callId]: call.call_id,
    }),
  };
}

/** The provider as the GenAI conventions name it (`openai`, `anthropic`); else the protocol as recorded. */
function providerName(protocol: string): string {
  if (protocol.startsWith('openai')) return 'openai';
  if (protocol.startsWith('anthropic')) return 'anthropic';
  return protocol === 'sim' ? 'isobudget.sim' : protocol;
}

function serverAddress(baseUrl: string): string | undefined {
  try {
    return new URL(baseUrl).hostname || undefined;
  } catch {
    return undefined;
  }
}

function compact(record: Record<string, AttributeValue | null | undefined>): Attributes {
  const out: Attributes = {};
  for (const [key, value] of Object.entries(record)) if (value !== undefined && value !== null && !(typeof value === 'number' && !Number.isFinite(value))) out[key] = value;
  return out;
}
