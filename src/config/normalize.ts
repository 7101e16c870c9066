/**
 * Validated YAML → `ExperimentConfig`: presets merged, defaults filled, paths made absolute,
 * skill files read. Problems found here (a missing skill file…) are returned, not thrown.
 */
import { withoutUserinfo } from '../core/display-url.js';
import { dirname, resolve } from 'node:path';
import { DEFAULTS } from './defaults.js';
import { normalizeAgentExecutor } from './normalize-agent.js';
import { normalizeCommandExecutor } from './normalize-command.js';
import { normalizeEvolve, normalizeRefresh } from './normalize-evolve.js';
import { normalizePricing } from './normalize-pricing.js';
import type { ConfigFileAccess } from './file-access.js';
import type { ConfigProblem } from './problem.js';
import { PRESETS } from './presets.js';
import type { RawExperimentConfig, RawScorer } from './schema.js';
import type { ExperimentConfig, ProviderConfig, RetryConfig, ScorerConfig, SelectorConfig, SequentialConfig, VariantConfig } from './types.js';

type Role = 'baseline' | 'candidate';
type KeyPath = Array<string | number>;

interface Context {
  configDir: string;
  files: ConfigFileAccess;
  problems: ConfigProblem[];
  /** `models.judge`, the default model of judge scorers and selectors. */
  judgeModel: string | undefined;
}

function fileProblem(context: Context, path: KeyPath, what: string, absolutePath: string, hint: string): void {
  context.problems.push({ code: 'config_file_not_found', path, anchor: 'value', message: `${what} not found: ${absolutePath}`, hint });
}

/** The `sequential:` block with its defaults; `run --sequential` without one uses `sequentialConfig({})`. */
export function sequentialConfig(raw: NonNullable<RawExperimentConfig['sequential']>): SequentialConfig {
  return {
    lookEvery: raw.look_every ?? DEFAULTS.sequentialLookEvery,
    minCases: raw.min_cases ?? DEFAULTS.sequentialMinCases,
    gainConfidence: raw.gain_confidence ?? DEFAULTS.sequentialGainConfidence,
    futilityConfidence: raw.futility_confidence ?? DEFAULTS.sequentialFutilityConfidence,
    ...(raw.confidence === undefined ? {} : { confidence: raw.confidence }),
  };
}

function provider(raw: RawExperimentConfig['provider']): ProviderConfig {
  const preset = raw.preset === undefined ? undefined : PRESETS[raw.preset];
  const protocol = raw.protocol ?? preset?.protocol ?? DEFAULTS.protocol;
  return {
    protocol,
    // Schema guarantees a base_url unless a preset or protocol sim provides one. Credentials
    // in it (`user:secret@`) are dropped: fetch refuses them anyway, and the URL is recorded.
    baseUrl: withoutUserinfo(raw.base_url ?? preset?.baseUrl ?? DEFAULTS.simBaseUrl),
    apiKeyEnv: raw.api_key_env ?? preset?.apiKeyEnv,
    preset: raw.preset,
    timeoutMs: raw.timeout_ms ?? DEFAULTS.timeoutMs,
    headers: { ...(raw.headers ?? {}) },
  };
}

function variant(role: Role, raw: RawExperimentConfig, context: Context): VariantConfig {
  const given = raw.variants?.[role];
  const models = raw.models ?? {};
  const model = given?.model ?? (role === 'baseline' ? models.baseline ?? models.candidate : models.candidate);
  let systemPrompt = given?.system_prompt ?? '';
  let skillFile: string | undefined;
  if (given?.skill !== undefined) {
    skillFile = resolve(context.configDir, given.skill);
    const text = context.files.readText(skillFile);
    if (text === undefined) fileProblem(context, ['variants', role, 'skill'], 'skill file', skillFile, 'create the file, or fix the path (it is relative to the config file)');
    systemPrompt = text ?? '';
  }
  return {
    id: given?.id ?? (role === 'baseline' ? DEFAULTS.baselineId : DEFAULTS.candidateId),
    model: model ?? '',
    systemPrompt,
    skillFile,
    temperature: given?.temperature ?? DEFAULTS.temperature,
  };
}

function scorer(raw: RawScorer | undefined, path: KeyPath, context: Context): ScorerConfig {
  const value = raw ?? DEFAULTS.scorer;
  const s = typeof value === 'string' ? { type: value } : value;
  const config = scorerOfType(s, path, context);
  const outputField = 'output_field' in s ? s.output_field : undefined;
  const expectedPattern = 'expected_pattern' in s ? s.expected_pattern : undefined;
  return { ...config, ...(outputField === undefined ? {} : { outputField }), ...(expectedPattern === undefined ? {} : { expectedPattern }) };
}

function scorerOfType(s: Exclude<RawScorer, string> | { type: Extract<RawScorer, string> }, path: KeyPath, context: Context): ScorerConfig {
  switch (s.type) {
    case 'exact':
    case 'normalized':
      return 'field' in s && s.field !== undefined ? { type: s.type, field: s.field } : { type: s.type };
    case 'contains':
      return { type: 'contains', ...('field' in s && s.field !== undefined ? { field: s.field } : {}), ignoreCase: ('ignore_case' in s ? s.ignore_case : undefined) ?? DEFAULTS.containsIgnoreCase };
    case 'regex':
      return { type: 'regex', ...('pattern' in s && s.pattern !== undefined ? { pattern: s.pattern } : {}), flags: ('flags' in s ? s.flags : undefined) ?? DEFAULTS.regexFlags };
    case 'numeric':
      return { type: 'numeric', tolerance: ('tolerance' in s ? s.tolerance : undefined) ?? DEFAULTS.numericTolerance, relative: ('relative' in s ? s.relative : undefined) ?? DEFAULTS.numericRelative };
    case 'json':
      return { type: 'json', ...('fields' in s && s.fields ? { fields: [...s.fields] } : {}), ...('schema' in s && s.schema ? { schema: s.schema } : {}) };
    case 'module': {
      const modulePath = resolve(context.configDir, s.module);
      if (!context.files.isFile(modulePath)) fileProblem(context, [...path, 'module'], 'scorer module', modulePath, 'create the module, or fix the path (it is relative to the config file)');
      return { type: 'module', module: modulePath, export: s.export ?? DEFAULTS.moduleExport };
    }
    case 'command':
      return { type: 'command', argv: [...s.argv], timeoutMs: s.timeout_ms ?? DEFAULTS.commandTimeoutMs };
    case 'judge':
      return {
        type: 'judge',
        model: judgeModel(s.model, [...path, 'model'], context),
        rubric: rubricText(s.rubric, [...path, 'rubric'], context),
        dimensions: [...(s.dimensions ?? DEFAULTS.judgeDimensions)],
        passThreshold: s.pass_threshold ?? DEFAULTS.judgePassThreshold,
        maxTokens: s.max_tokens ?? DEFAULTS.judgeMaxTokens,
      };
  }
}

/** A judge needs a model: its own, or `models.judge`. */
function judgeModel(own: string | undefined, path: KeyPath, context: Context): string {
  const model = own ?? context.judgeModel;
  if (model !== undefined) return model;
  context.problems.push({
    code: 'config_missing_key', path, anchor: 'parent', message: 'a judge needs a model',
    hint: 'set `models.judge: your-judge-model`, or `model:` on the judge itself',
  });
  return '';
}

/** Rubric given inline, or as a .md/.txt file next to the config. */
function rubricText(rubric: string | undefined, path: KeyPath, context: Context): string {
  if (rubric === undefined) return '';
  if (!/\.(md|txt)$/i.test(rubric.trim())) return rubric;
  const file = resolve(context.configDir, rubric.trim());
  const text = context.files.readText(file);
  if (text === undefined) fileProblem(context, path, 'rubric file', file, 'create the rubric file, or give the rubric inline');
  return text ?? '';
}

function selector(raw: RawExperimentConfig['selector'], context: Context): SelectorConfig {
  const value = raw ?? DEFAULTS.selector;
  const s = typeof value === 'string' ? { type: value } : value;
  if (s.type === 'judge') {
    return { type: 'judge', model: judgeModel('model' in s ? s.model : undefined, ['selector', 'model'], context), maxTokens: ('max_tokens' in s ? s.max_tokens : undefined) ?? DEFAULTS.judgeMaxTokens };
  }
  if (s.type !== 'verifier') return { type: s.type };
  const inner = 'scorer' in s ? s.scorer : undefined;
  return { type: 'verifier', scorer: inner === undefined ? undefined : scorer(inner, ['selector', 'scorer'], context) };
}

function retries(raw: RawExperimentConfig['retries']): RetryConfig {
  const r = typeof raw === 'number' ? { max_attempts: raw } : raw ?? {};
  return {
    maxAttempts: r.max_attempts ?? DEFAULTS.maxAttempts,
    initialDelayMs: ('initial_delay_ms' in r ? r.initial_delay_ms : undefined) ?? DEFAULTS.initialDelayMs,
    maxDelayMs: ('max_delay_ms' in r ? r.max_delay_ms : undefined) ?? DEFAULTS.maxDelayMs,
  };
}

/** Sorted, deduplicated, with 1 always included (pass@1 is always reported). */
function bestOfN(values: readonly number[] | undefined): number[] {
  return [...new Set([1, ...(values ?? DEFAULTS.bestOfN)])].sort((a, b) => a - b);
}

export function normalizeConfig(
  raw: RawExperimentConfig,
  configPath: string,
  files: ConfigFileAccess,
): { config: ExperimentConfig; problems: ConfigProblem[] } {
  const context: Context = { configDir: dirname(configPath), files, problems: [], judgeModel: raw.models?.judge };
  const dataset = (p: string | undefined) => (p === undefined ? undefined : resolve(context.configDir, p));
  const total = raw.budget?.total_tokens_per_case ?? DEFAULTS.totalTokensPerCase;
  const variants = { baseline: variant('baseline', raw, context), candidate: variant('candidate', raw, context) };
  const modelless = (['baseline', 'candidate'] as const).filter((role) => variants[role].model === '');
  if (modelless.length > 0) {
    context.problems.push({
      code: 'config_missing_key', path: ['models', 'candidate'], anchor: 'parent', message: `no model for the ${modelless.join(' and ')} variant${modelless.length > 1 ? 's' : ''}`,
      hint: `set \`models.candidate\` (used by both variants by default) or \`variants.${modelless[0] ?? 'candidate'}.model\``,
    });
  }
  if (variants.baseline.id === variants.candidate.id) {
    context.problems.push({
      code: 'config_invalid', path: ['variants', 'candidate', 'id'], anchor: 'value', message: `baseline and candidate share the id \`${variants.candidate.id}\``,
      hint: 'give each variant its own `id` so verdicts can tell them apart',
    });
  }
  const config: ExperimentConfig = {
    experiment: raw.experiment,
    configPath,
    provider: provider(raw.provider),
    models: { candidate: raw.models?.candidate, baseline: raw.models?.baseline, judge: raw.models?.judge },
    budget: {
      totalTokensPerCase: total,
      perCaseMaxTokens: raw.budget?.per_case_max_tokens ?? Math.min(DEFAULTS.perCaseMaxTokens, total),
      bestOfN: bestOfN(raw.budget?.best_of_n),
      includeJudge: raw.budget?.include_judge ?? DEFAULTS.includeJudge,
      ...(raw.budget?.max_total_tokens === undefined ? {} : { maxTotalTokens: raw.budget.max_total_tokens }),
      ...(raw.budget?.max_cost_usd === undefined ? {} : { maxCostUsd: raw.budget.max_cost_usd }),
    },
    datasets: { train: dataset(raw.datasets.train), val: dataset(raw.datasets.val), test: dataset(raw.datasets.test), regression: dataset(raw.datasets.regression) },
    gates: {
      minSameBudgetGain: raw.gates?.min_same_budget_gain ?? DEFAULTS.minSameBudgetGain,
      maxTokenGrowthRatio: raw.gates?.max_token_growth_ratio ?? DEFAULTS.maxTokenGrowthRatio,
      maxLatencyGrowthRatio: raw.gates?.max_latency_growth_ratio ?? DEFAULTS.maxLatencyGrowthRatio,
      bootstrapRounds: raw.gates?.bootstrap_rounds ?? DEFAULTS.bootstrapRounds,
      confidence: raw.gates?.confidence ?? DEFAULTS.confidence,
      ...(raw.gates?.max_error_rate === undefined ? {} : { maxErrorRate: raw.gates.max_error_rate }),
    },
    variants,
    executor: typeof raw.executor === 'object' && raw.executor.type === 'agent' ? normalizeAgentExecutor(raw.executor, context.configDir, files, context.problems)
      : typeof raw.executor === 'object' && raw.executor.type === 'command' ? normalizeCommandExecutor(raw.executor, context.configDir, raw.provider.api_key_env ?? (raw.provider.preset === undefined ? undefined : PRESETS[raw.provider.preset].apiKeyEnv), context.problems)
      : { type: 'chat' },
    scorer: scorer(raw.scorer, ['scorer'], context),
    selector: selector(raw.selector, context),
    epochs: raw.epochs ?? DEFAULTS.epochs,
    seed: raw.seed ?? DEFAULTS.seed,
    concurrency: raw.concurrency ?? DEFAULTS.concurrency,
    rateLimit: raw.rate_limit?.requests_per_second ?? (raw.rate_limit?.requests_per_minute === undefined ? undefined : raw.rate_limit.requests_per_minute / 60),
    tokenRateLimit: raw.rate_limit?.tokens_per_minute,
    retries: retries(raw.retries),
    nMode: raw.n_mode ?? DEFAULTS.nMode,
    ...(raw.sequential === undefined ? {} : { sequential: sequentialConfig(raw.sequential) }),
    ...(raw.pricing === undefined ? {} : { pricing: normalizePricing(raw.pricing) }),
  };
  // Set only when given: absent keys stay out of the config hash, so older runs still resume.
  if (raw.models?.proposer !== undefined) config.models.proposer = raw.models.proposer;
  if (raw.datasets.refresh !== undefined) config.datasets.refresh = normalizeRefresh(raw.datasets.refresh);
  if (raw.datasets.fields !== undefined) config.datasets.fields = { ...raw.datasets.fields };
  if (raw.evolve !== undefined) config.evolve = normalizeEvolve(raw.evolve, raw.models?.proposer, provider);
  return { config, problems: context.problems };
}
