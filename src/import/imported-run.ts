/**
 * Another tool's eval results as an isobudget run, pure: the manifest, one call record per
 * model call and one result record per (case, arm, epoch), in the formats `isobudget run`
 * writes (src/ledger/records.ts), so `analyze`, `report`, `compare` and `export otel` read
 * an import like any run.
 *
 * What the other tool cannot know is recorded as unknown, never invented:
 * - B: neither promptfoo nor inspect runs under a per-case token budget, so the manifest's
 *   `budget.total_tokens_per_case` is null and `imported.budget` is null. The analysis then
 *   treats B exactly as for a seed-format ledger that states none (`budget_source: unknown`),
 *   and the best verdict it can reach is `inconclusive`.
 * - n: both tools sample one answer per (case, repeat): only the n=1 arms exist; repeats are
 *   epochs of those arms.
 * - usage: a call that reported no token counts (or only zeros) has unknown usage
 *   (`usage_missing`), not 0 tokens.
 */
import type { UnifiedFinishReason } from '../core/finish-reason.js';
import { sha256, stableStringify } from '../core/hash.js';
import type { ExperimentConfig } from '../config/types.js';
import { DEFAULTS } from '../config/index.js';
import type { ArmPlan, Manifest } from '../ledger/manifest.js';
import { LEDGER_SCHEMA_VERSION, type CallRecord, type ResultRecord } from '../ledger/records.js';
import { TOOL_VERSION } from '../version.js';

/** Token counts one call reported; undefined fields were not reported (tokens). */
export interface ImportedUsage {
  prompt: number | undefined;
  completion: number | undefined;
  total: number | undefined;
  /** Prompt tokens read from a cache (tokens). */
  cached: number | undefined;
  reasoning: number | undefined;
}

/** One answer of one variant on one case in one repeat, as the other tool recorded it. */
export interface ImportedSample {
  caseId: string;
  category: string | undefined;
  variant: 'baseline' | 'candidate';
  /** 0-based repeat index (promptfoo `--repeat`, inspect `epoch` − 1). */
  epoch: number;
  passed: boolean;
  /** The tool's score in [0, 1] when it has one on that scale. */
  score: number | undefined;
  output: string;
  model: string;
  /** Where the calls went (a base URL or the tool's provider id). */
  baseUrl: string;
  /** Model calls behind the sample, one usage each (empty: the tool recorded none). */
  calls: ImportedUsage[];
  /** USD the tool reported for the sample; undefined when it did not know. */
  costUsd: number | undefined;
  /** Wall time of the sample (ms); undefined when not recorded. */
  latencyMs: number | undefined;
  finishReason: UnifiedFinishReason;
  finishReasonRaw: string | undefined;
  /** The tool's error for the sample (the sample then failed for that reason, not by its score). */
  error: string | undefined;
}

/** Where an import came from (manifest `imported`). */
export interface ImportSource {
  tool: 'promptfoo' | 'inspect';
  /** The tool's version as its file states it. */
  toolVersion: string | undefined;
  /** Absolute path of the file imported. */
  file: string;
  /** sha256 of the file's bytes (hex). */
  sha256: string;
  /** The tool's own id of the eval (promptfoo evalId, inspect eval.eval_id). */
  evalId: string | undefined;
  /** When the tool ran the eval (ISO 8601). */
  createdAt: string | undefined;
  experiment: string;
  baseline: { id: string; model: string; prompt: string };
  candidate: { id: string; model: string; prompt: string };
  /** What the scorer was (e.g. the promptfoo assertion types, the inspect scorer names). */
  scorer: string;
}

export interface ImportedRun {
  manifest: Manifest;
  calls: CallRecord[];
  results: ResultRecord[];
}

const ARMS: ReadonlyArray<{ arm: string; variant: 'baseline' | 'candidate' }> = [
  { arm: 'baseline_single', variant: 'baseline' },
  { arm: 'candidate_single', variant: 'candidate' },
];

/** A usage with nothing reported, or only zeros, is unknown (invariant 2). */
export function usageKnown(usage: ImportedUsage): boolean {
  const counts = [usage.prompt, usage.completion, usage.total];
  return counts.some((c) => c !== undefined) && counts.some((c) => c !== undefined && c > 0);
}

function totalOf(usage: ImportedUsage): number | undefined {
  if (!usageKnown(usage)) return undefined;
  return usage.total ?? (usage.prompt ?? 0) + (usage.completion ?? 0);
}

export function buildImportedRun(runId: string, source: ImportSource, samples: readonly ImportedSample[], now: Date): ImportedRun {
  const ts = now.toISOString();
  const calls: CallRecord[] = [];
  const results: ResultRecord[] = [];
  const epochs = Math.max(1, ...samples.map((s) => s.epoch + 1));
  for (const sample of samples) {
    const arm = sample.variant === 'baseline' ? 'baseline_single' : 'candidate_single';
    const unitCalls = sample.calls.map((usage, i): CallRecord => {
      const known = usageKnown(usage);
      const total = totalOf(usage);
      return {
        schema_version: LEDGER_SCHEMA_VERSION, kind: 'call', run_id: runId, case_id: sample.caseId, arm, n: 1, path: 0, paths: 1,
        epoch: sample.epoch, split: 'val', model: sample.model, base_url: sample.baseUrl, protocol: source.tool,
        prompt_tokens: known ? usage.prompt : undefined, completion_tokens: known ? usage.completion : undefined, total_tokens: total,
        cached_tokens: known ? usage.cached : undefined, reasoning_tokens: known ? usage.reasoning : undefined, usage_missing: !known,
        // The tool's cost is per sample: on its one call when there is one, else unknown.
        cost_usd: sample.calls.length === 1 && sample.costUsd !== undefined && known ? sample.costUsd : null,
        max_tokens: 0, finish_reason: sample.finishReason, finish_reason_raw: sample.finishReasonRaw,
        latency_ms: sample.calls.length === 1 ? (sample.latencyMs ?? 0) : 0, attempt: 1, status: undefined, role: 'generate',
        error: sample.error, retried: false, note: `imported from ${source.tool}`, ts, call_id: `${source.tool}-${calls.length + i}`,
      };
    });
    calls.push(...unitCalls);
    const totals = unitCalls.map((c) => c.total_tokens);
    const sum = (values: Array<number | undefined>): number | undefined => (values.length === 0 || values.some((v) => v === undefined) ? undefined : values.reduce<number>((a, v) => a + (v ?? 0), 0));
    const total = sum(totals);
    const missing = unitCalls.filter((c) => c.usage_missing).length;
    results.push({
      schema_version: LEDGER_SCHEMA_VERSION, kind: 'result', run_id: runId, case_id: sample.caseId, arm, variant: sample.variant, n: 1,
      epoch: sample.epoch, split: 'val', category: sample.category, passed: sample.passed, passed_any: sample.passed, passes: sample.passed ? 1 : 0,
      selected_path: 0, judge_score: undefined,
      paths: [{ path: 0, output: sample.output, passed: sample.passed, score: sample.score ?? (sample.passed ? 1 : 0), finish_reason: sample.finishReason, tokens: total, error: sample.error }],
      prompt_tokens: missing > 0 ? undefined : sum(unitCalls.map((c) => c.prompt_tokens)),
      completion_tokens: missing > 0 ? undefined : sum(unitCalls.map((c) => c.completion_tokens)),
      total_tokens: total,
      cost_usd: total !== undefined && sample.costUsd !== undefined ? sample.costUsd : null,
      // No call recorded at all: the spend is unknown, and counted as one call lacking usage.
      calls_missing_usage: unitCalls.length === 0 ? 1 : missing, calls: unitCalls.length, retries: 0,
      // JSON has no Infinity: results of an import state B as unknown the way a seed ledger's do (Infinity in memory, null on disk).
      budget: Number.POSITIVE_INFINITY,
      budget_exhausted: false, over_budget: false, latency_ms: sample.latencyMs ?? 0, ts,
    });
  }
  return { manifest: manifestOf(runId, source, samples, epochs, ts), calls, results };
}

function manifestOf(runId: string, source: ImportSource, samples: readonly ImportedSample[], epochs: number, ts: string): Manifest {
  const caseIds = [...new Set(samples.map((s) => s.caseId))].sort();
  const config: ExperimentConfig = {
    experiment: source.experiment,
    configPath: source.file,
    provider: { protocol: 'openai-chat', baseUrl: samples[0]?.baseUrl ?? source.tool, apiKeyEnv: undefined, preset: undefined, timeoutMs: 0, headers: {} },
    models: { candidate: source.candidate.model, baseline: source.baseline.model, judge: undefined },
    // B unknown: null on disk (contextFromManifest reads it as unknown), never a default B.
    budget: { totalTokensPerCase: null as unknown as number, perCaseMaxTokens: 0, bestOfN: [1], includeJudge: false },
    datasets: { train: undefined, val: source.file, test: undefined, regression: undefined },
    gates: { minSameBudgetGain: DEFAULTS.minSameBudgetGain, maxTokenGrowthRatio: DEFAULTS.maxTokenGrowthRatio, maxLatencyGrowthRatio: DEFAULTS.maxLatencyGrowthRatio, bootstrapRounds: DEFAULTS.bootstrapRounds, confidence: DEFAULTS.confidence },
    variants: {
      baseline: { id: source.baseline.id, model: source.baseline.model, systemPrompt: source.baseline.prompt, skillFile: undefined, temperature: 0 },
      candidate: { id: source.candidate.id, model: source.candidate.model, systemPrompt: source.candidate.prompt, skillFile: undefined, temperature: 0 },
    },
    executor: { type: 'chat' },
    scorer: { type: 'module', module: source.tool, export: source.scorer },
    selector: { type: 'oracle' },
    epochs,
    seed: DEFAULTS.seed,
    concurrency: 1,
    rateLimit: undefined,
    retries: { maxAttempts: 1, initialDelayMs: 0, maxDelayMs: 0 },
    nMode: 'parallel',
  };
  const arms: ArmPlan[] = ARMS.map(({ arm, variant }) => ({ arm, variant, n: 1, nMode: 'parallel', binding: false, minMaxTokensPerPath: 0, maxMaxTokensPerPath: 0 }));
  return {
    schema_version: LEDGER_SCHEMA_VERSION, run_id: runId, experiment: source.experiment, status: 'complete',
    created_at: source.createdAt ?? ts, updated_at: ts, tool: { name: 'isobudget', version: TOOL_VERSION }, node: process.version,
    config_path: source.file, config_hash: sha256(stableStringify(config)), config, split: 'val',
    // The cases' identity: two imports of the same tests compare; a changed test set does not.
    datasets: { val: { path: source.file, sha256: sha256(caseIds.join('\n')), cases: caseIds.length } },
    seed: DEFAULTS.seed, scorer: { name: `${source.tool}:${source.scorer}`, version: source.toolVersion ?? 'unknown' }, selector: 'oracle', n_mode: 'parallel',
    arms, units_planned: samples.length, allow_overlap: false, overlap: [],
    warnings: [`imported from ${source.tool}${source.toolVersion ? ` ${source.toolVersion}` : ''}: no budget B (not a same-budget comparison), n=1 only`],
    events: [], resumed: 0,
    imported: { tool: source.tool, tool_version: source.toolVersion ?? null, file: source.file, sha256: source.sha256, eval_id: source.evalId ?? null, budget: null },
  };
}
