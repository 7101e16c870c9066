/**
 * Every span attribute name the OpenTelemetry export writes, in one place, with the version
 * of the conventions it follows. The GenAI conventions are still "Development" upstream:
 * when they move, this file moves, and `GENAI_SEMCONV_VERSION` says which one a span followed
 * (it is the resource's `schema_url` too).
 *
 * - GenAI: OpenTelemetry semantic conventions 1.37.0, "Semantic conventions for generative
 *   client AI spans" (gen-ai-spans.md) — `gen_ai.provider.name` replaced `gen_ai.system` in
 *   1.37.0 — and "gen-ai-events"/"gen-ai-input-output" for the content attributes.
 * - Langfuse: its OpenTelemetry attribute mapping (langfuse.com/integrations/native/opentelemetry,
 *   and ".../opentelemetry/experiments" for the experiment attributes, which must be on every
 *   span of an item's trace).
 * - isobudget: ours, `isobudget.*`.
 */

export const GENAI_SEMCONV_VERSION = '1.37.0';
export const SCHEMA_URL = `https://opentelemetry.io/schemas/${GENAI_SEMCONV_VERSION}`;

export const GEN_AI = {
  operationName: 'gen_ai.operation.name',
  providerName: 'gen_ai.provider.name',
  requestModel: 'gen_ai.request.model',
  responseModel: 'gen_ai.response.model',
  requestMaxTokens: 'gen_ai.request.max_tokens',
  usageInputTokens: 'gen_ai.usage.input_tokens',
  usageOutputTokens: 'gen_ai.usage.output_tokens',
  /** Prompt tokens read from a provider cache (tokens); set only when the ledger knows them. */
  usageCacheReadInputTokens: 'gen_ai.usage.cache_read.input_tokens',
  /** Prompt tokens written to a provider cache (tokens); the ledger does not record them yet, so never set. */
  usageCacheCreationInputTokens: 'gen_ai.usage.cache_creation.input_tokens',
  responseFinishReasons: 'gen_ai.response.finish_reasons',
  /** Content (only with --include-content): the path's answer as GenAI output messages (JSON). */
  outputMessages: 'gen_ai.output.messages',
  serverAddress: 'server.address',
  errorType: 'error.type',
} as const;

export const ISOBUDGET = {
  runId: 'isobudget.run_id',
  experiment: 'isobudget.experiment',
  caseId: 'isobudget.case_id',
  category: 'isobudget.category',
  split: 'isobudget.split',
  arm: 'isobudget.arm',
  variant: 'isobudget.variant',
  variantId: 'isobudget.variant_id',
  n: 'isobudget.n',
  epoch: 'isobudget.epoch',
  path: 'isobudget.path',
  paths: 'isobudget.paths',
  /** B, tokens one case may consume in one arm; absent when unknown (an import). */
  budget: 'isobudget.budget',
  passed: 'isobudget.passed',
  passedAny: 'isobudget.passed_any',
  /** The tokens reserved for the call before it was sent (the prompt estimate + max_tokens). */
  reservation: 'isobudget.reservation',
  costUsd: 'isobudget.cost_usd',
  totalTokens: 'isobudget.total_tokens',
  usageMissing: 'isobudget.usage_missing',
  attempt: 'isobudget.attempt',
  retried: 'isobudget.retried',
  role: 'isobudget.role',
  status: 'isobudget.http_status',
  latencyMs: 'isobudget.latency_ms',
  callId: 'isobudget.call_id',
} as const;

export const LANGFUSE = {
  traceName: 'langfuse.trace.name',
  sessionId: 'langfuse.session.id',
  /** Prefix: `langfuse.trace.metadata.<key>`. */
  traceMetadata: 'langfuse.trace.metadata',
  traceTags: 'langfuse.trace.tags',
  traceOutput: 'langfuse.trace.output',
  observationType: 'langfuse.observation.type',
  observationOutput: 'langfuse.observation.output',
  experimentId: 'langfuse.experiment.id',
  experimentName: 'langfuse.experiment.name',
  experimentDescription: 'langfuse.experiment.description',
  experimentDatasetId: 'langfuse.experiment.dataset.id',
  experimentItemId: 'langfuse.experiment.item.id',
  experimentItemRootObservationId: 'langfuse.experiment.item.root_observation_id',
} as const;
