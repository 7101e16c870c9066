/**
 * The experiment YAML schema (snake_case, as users write it): the single source of truth for
 * validation (`parseConfigText`) and for the JSON Schema editors use (`experimentJsonSchema`).
 * Only validation lives here — no transforms — so the JSON Schema stays exact; defaults are
 * annotations from `DEFAULTS`, applied by `normalize.ts`.
 */
import { z } from 'zod';
import { agentExecutorSchema } from './agent-schema.js';
import { commandExecutorSchema } from './command-executor-schema.js';
import { DEFAULTS } from './defaults.js';
import { evolveSchema } from './evolve-schema.js';
import { PRESET_NAMES, PRESETS } from './presets.js';
import { parseOutputField } from '../core/output-field.js';
import { PRICING_HELP, pricingSchema } from './pricing-schema.js';
import { datasets } from './datasets-schema.js';

export const PROTOCOLS = ['openai-chat', 'openai-responses', 'anthropic-messages', 'sim'] as const;

/** Header names that would carry a credential; keys belong in the env var `api_key_env` names. */
const SECRET_HEADER = /authorization|api[-_]?key|secret|token|password|cookie/i;
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** Ids and names end up in file names and ledger keys. */
const ID = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

/** `schema.optional()` with the description (and default) editors and error hints show. */
function opt<T extends z.ZodType>(schema: T, description: string, fallback?: unknown) {
  return schema.optional().meta(fallback === undefined ? { description } : { description, default: fallback });
}
const positiveInt = () => z.int().positive();
/**
 * Cross-field checks run even when a sibling field already failed, so one pass reports every
 * problem; their code therefore reads fields defensively (`typeof … === 'number'`).
 */
const always = { when: (payload: { value: unknown }) => payload.value !== null && typeof payload.value === 'object' };
const has = (value: unknown, key: string): boolean => (value as Record<string, unknown>)[key] !== undefined;
const nonEmpty = () => z.string().min(1);

const provider = z
  .strictObject({
    preset: opt(z.enum(PRESET_NAMES), `Named provider that fills protocol, base_url and api_key_env: ${PRESET_NAMES.join(', ')}.`),
    protocol: opt(z.enum(PROTOCOLS), `Wire protocol: ${PROTOCOLS.join(', ')}.`, DEFAULTS.protocol),
    base_url: opt(z.string().regex(/^(https?|sim):\/\/./, { error: 'must be an http(s):// URL, e.g. https://api.openai.com/v1' }), 'Base URL of the API, e.g. https://taotoken.net/api (required unless a preset or protocol sim gives one).'),
    api_key_env: opt(
      z.string().regex(ENV_NAME, { error: 'must be the NAME of an environment variable (letters, digits, _), not the key itself' }),
      'NAME of the environment variable that holds the API key, e.g. TAOTOKEN_API_KEY. Never put the key in the config.',
    ),
    timeout_ms: opt(positiveInt(), 'Per-attempt HTTP timeout in milliseconds.', DEFAULTS.timeoutMs),
    headers: opt(
      z.record(z.string(), z.string()).superRefine((headers, ctx) => {
        for (const name of Object.keys(headers).filter((n) => SECRET_HEADER.test(n))) {
          ctx.addIssue({
            code: 'custom', path: [name], message: `header \`${name}\` would carry a secret; credentials do not belong in the config`,
            params: { at: 'key', hint: 'remove the header and set `api_key_env: YOUR_KEY_VAR`; the provider sends the key itself' },
          });
        }
      }, always),
      'Extra HTTP headers (strings; never credentials — use api_key_env).',
    ),
  })
  .superRefine((p, ctx) => {
    if (has(p, 'base_url')) return;
    const preset = typeof p.preset === 'string' ? PRESETS[p.preset] : undefined;
    const protocol = typeof p.protocol === 'string' ? p.protocol : preset?.protocol ?? DEFAULTS.protocol;
    if (preset === undefined && protocol !== 'sim') {
      ctx.addIssue({
        code: 'custom', path: ['base_url'], message: `missing required key \`base_url\` for protocol ${protocol}`,
        params: { at: 'parent', hint: 'add `base_url: https://…` under `provider:`, or pick a preset (e.g. `preset: openai`)' },
      });
    }
  }, always)
  .meta({ description: 'Where model calls go. Give a `preset`, or `base_url` (+ `api_key_env`).' });

const variant = z
  .strictObject({
    id: opt(z.string().regex(ID, { error: 'must start with a letter or digit and use only letters, digits, . _ -' }), 'Stable id used in verdicts and memory, e.g. skill-date-parser-v3.'),
    model: opt(nonEmpty(), 'Model name; defaults to models.candidate (baseline: models.baseline, else models.candidate).'),
    skill: opt(nonEmpty(), 'Skill file (relative to this YAML) used as the system prompt. Not with system_prompt.'),
    system_prompt: opt(z.string(), 'Inline system prompt. Not with skill.'),
    temperature: opt(z.number().min(0).max(2), 'Sampling temperature, 0–2.', DEFAULTS.temperature),
  })
  .superRefine((v, ctx) => {
    if (has(v, 'skill') && has(v, 'system_prompt')) {
      ctx.addIssue({
        code: 'custom', path: ['system_prompt'], message: 'give either `skill` or `system_prompt`, not both',
        params: { at: 'key', hint: 'keep `skill: <file>` to version the prompt as a file, or inline it with `system_prompt:` alone' },
      });
    }
  }, always);

const budget = z
  .strictObject({
    total_tokens_per_case: opt(positiveInt(), 'Budget B: tokens one case may consume in one arm, every call and path.', DEFAULTS.totalTokensPerCase),
    per_case_max_tokens: opt(positiveInt(), 'Upper bound on any one path\'s max_tokens (tokens); at most total_tokens_per_case.', DEFAULTS.perCaseMaxTokens),
    best_of_n: opt(z.array(positiveInt()), 'Every n to evaluate (positive integers); 1 is always added.', DEFAULTS.bestOfN),
    include_judge: opt(z.boolean(), 'Whether judge tokens count toward B.', DEFAULTS.includeJudge),
    max_total_tokens: opt(positiveInt(), 'Run-level cap (tokens): every call of the run together, earlier sessions of a resumed run included; a unit reserves its worst case before it starts, and the run stops starting units (ends `interrupted`) when the next could cross it.'),
    max_cost_usd: opt(z.number().positive(), 'Run-level cap (USD at the price table), reserved like max_total_tokens; needs a price for every model the run calls.'),
  })
  .superRefine((b, ctx) => {
    const total = typeof b.total_tokens_per_case === 'number' ? b.total_tokens_per_case : DEFAULTS.totalTokensPerCase;
    if (typeof b.per_case_max_tokens === 'number' && b.per_case_max_tokens > total) {
      ctx.addIssue({
        code: 'custom', path: ['per_case_max_tokens'], message: `per_case_max_tokens (${b.per_case_max_tokens}) exceeds total_tokens_per_case (${total})`,
        params: { hint: 'one path can never spend more than the whole budget B: lower per_case_max_tokens or raise total_tokens_per_case' },
      });
    }
    (Array.isArray(b.best_of_n) ? b.best_of_n : []).forEach((n: unknown, index) => {
      if (typeof n === 'number' && n > total) {
        ctx.addIssue({
          code: 'custom', path: ['best_of_n', index], message: `n=${n} leaves less than one token per path under total_tokens_per_case ${total}`,
          params: { hint: 'use a smaller n or a larger budget' },
        });
      }
    });
  }, always)
  .meta({ description: 'The token budget every arm gets per case.' });

const gates = z
  .strictObject({
    min_same_budget_gain: opt(z.number().min(0).max(1), 'Minimum n=1 pass-rate gain at the same budget (0–1).', DEFAULTS.minSameBudgetGain),
    max_token_growth_ratio: opt(z.number().positive(), 'Maximum tokens_per_success ratio candidate/baseline.', DEFAULTS.maxTokenGrowthRatio),
    max_latency_growth_ratio: opt(z.number().positive(), 'Maximum p95 latency ratio candidate/baseline.', DEFAULTS.maxLatencyGrowthRatio),
    bootstrap_rounds: opt(positiveInt(), 'Bootstrap resamples over cases.', DEFAULTS.bootstrapRounds),
    confidence: opt(z.number().gt(0).lt(1), 'Two-sided confidence level of every interval, e.g. 0.95.', DEFAULTS.confidence),
    max_error_rate: opt(z.number().min(0).max(1), 'Largest share of an arm\'s paths that may end in a provider error, scorer error or timeout before the verdict is invalid (0–1).', DEFAULTS.maxErrorRate),
  })
  .meta({ description: 'Verdict thresholds.' });

const OUTPUT_FIELD_HELP = 'Dotted path into the output parsed as JSON (JSON Lines: the last line that has it), e.g. `result` for `claude -p --output-format json`, `item[type=agent_message].text` for `codex exec --json`; the value found there is what gets scored. A missing path or non-JSON output is a scorer error.';
/** `scorer.output_field`: the syntax is checked here, the lookup happens in scorers/output-field.ts. */
const outputField = () => opt(z.string().refine((path) => parseOutputField(path) !== undefined, { error: 'must be a dotted path such as `result` or `item[type=agent_message].text`' }), OUTPUT_FIELD_HELP);
const EXPECTED_FIELD_HELP = 'Dotted path into an object `expected` holding the answer.';
/** `scorer.expected_pattern`: a regex over the expected text whose first group is the answer (GSM8K's `#### 42`). */
const expectedPattern = () => opt(
  z.string().superRefine((pattern, ctx) => {
    let groups = 0;
    try {
      groups = new RegExp(`${pattern}|`).exec('')?.length ?? 1;
    } catch (error) {
      ctx.addIssue({ code: 'custom', message: `invalid regular expression: ${(error as Error).message}`, params: { hint: "use JavaScript RegExp syntax; in YAML quote it with single quotes, e.g. '#### *(-?[\\d,.]+)\\s*$'" } });
      return;
    }
    if (groups < 2) ctx.addIssue({ code: 'custom', message: 'has no capturing group: the first group is the expected value', params: { hint: "wrap the answer in parentheses, e.g. '#### *(-?[\\d,.]+)\\s*$'" } });
  }),
  'Regular expression over the expected text; its first group is the expected value (GSM8K: \'#### *(-?[\\d,.]+)\\s*$\'). A case whose expected text does not match is a scorer error.',
);
const sequential = z
  .strictObject({
    look_every: opt(positiveInt(), 'Cases per block: the anytime-valid test is read after each block.', DEFAULTS.sequentialLookEvery),
    min_cases: opt(positiveInt(), 'No look before this many cases.', DEFAULTS.sequentialMinCases),
    gain_confidence: opt(z.number().gt(0).lt(1), 'One-sided confidence that the n=1 gain is at least min_same_budget_gain before an efficacy stop.', DEFAULTS.sequentialGainConfidence),
    futility_confidence: opt(z.number().gt(0).lt(1), 'One-sided confidence that the n=1 gain is below min_same_budget_gain before a futility stop.', DEFAULTS.sequentialFutilityConfidence),
    confidence: opt(z.number().gt(0).lt(1), 'Two-sided confidence of the anytime-valid confidence sequence (default: gates.confidence).'),
  })
  .meta({ description: 'Sequential screening: cases in a seeded random order, an anytime-valid test after each block, stop once decided.' });

const scorerObject = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('exact'), field: opt(nonEmpty(), EXPECTED_FIELD_HELP), expected_pattern: expectedPattern(), output_field: outputField() }),
  z.strictObject({ type: z.literal('normalized'), field: opt(nonEmpty(), EXPECTED_FIELD_HELP), expected_pattern: expectedPattern(), output_field: outputField() }),
  z.strictObject({
    type: z.literal('contains'),
    field: opt(nonEmpty(), EXPECTED_FIELD_HELP),
    expected_pattern: expectedPattern(),
    output_field: outputField(),
    ignore_case: opt(z.boolean(), 'Case-insensitive match.', DEFAULTS.containsIgnoreCase),
  }),
  z
    .strictObject({
      type: z.literal('regex'),
      pattern: opt(z.string(), 'Regular expression (default: the case\'s expected value).'),
      flags: opt(z.string(), 'JavaScript RegExp flags, e.g. i.', DEFAULTS.regexFlags),
      output_field: outputField(),
    })
    .superRefine((s, ctx) => {
      try {
        new RegExp(s.pattern ?? '', s.flags ?? '');
      } catch (error) {
        ctx.addIssue({
          code: 'custom', path: [s.pattern === undefined ? 'flags' : 'pattern'], message: `invalid regular expression: ${(error as Error).message}`,
          params: { hint: 'use JavaScript RegExp syntax; in YAML quote the pattern with single quotes so backslashes survive' },
        });
      }
    }),
  z.strictObject({
    type: z.literal('numeric'),
    tolerance: opt(z.number().min(0), 'Allowed absolute (or relative) difference.', DEFAULTS.numericTolerance),
    relative: opt(z.boolean(), 'Compare |a−b| / |expected| instead of |a−b|.', DEFAULTS.numericRelative),
    expected_pattern: expectedPattern(),
    output_field: outputField(),
  }),
  z.strictObject({
    type: z.literal('json'),
    fields: opt(z.array(nonEmpty()).min(1), 'Only compare these top-level fields.'),
    schema: opt(z.record(z.string(), z.unknown()), 'JSON Schema the output must satisfy.'),
    output_field: outputField(),
  }),
  z.strictObject({
    type: z.literal('module'),
    module: nonEmpty().meta({ description: 'ES module file (relative to this YAML) exporting the scorer.' }),
    export: opt(nonEmpty(), 'Export name.', DEFAULTS.moduleExport),
    output_field: outputField(),
  }),
  z.strictObject({
    type: z.literal('command'),
    argv: z.array(nonEmpty()).min(1).meta({ description: 'Program and arguments, run without a shell.' }),
    timeout_ms: opt(positiveInt(), 'Timeout in milliseconds.', DEFAULTS.commandTimeoutMs),
    output_field: outputField(),
  }),
  z.strictObject({
    type: z.literal('judge'),
    model: opt(nonEmpty(), 'Judge model (default: models.judge).'),
    rubric: opt(z.string(), 'Rubric text, or a .md/.txt file relative to this YAML.'),
    dimensions: opt(z.array(nonEmpty()).min(1), 'Dimensions scored and reported separately; the first decides pass/fail.', [...DEFAULTS.judgeDimensions]),
    pass_threshold: opt(z.number().min(0).max(1), 'A path passes when its first dimension scores at least this (0–1).', DEFAULTS.judgePassThreshold),
    max_tokens: opt(positiveInt(), 'max_tokens of each judge call.', DEFAULTS.judgeMaxTokens),
    output_field: outputField(),
  }),
]);

export const SCORER_SHORTHANDS = ['exact', 'normalized', 'contains', 'regex', 'numeric', 'json'] as const;
const SCORER_HELP = 'How a path is graded: a name (exact, normalized, contains, regex, numeric, json) or a mapping with `type:`; module and command scorers need a mapping, e.g. { type: module, module: ./score.mjs }.';
const scorer = z.union([z.enum(SCORER_SHORTHANDS), scorerObject]).meta({ description: SCORER_HELP });

const SELECTOR_HELP = 'How Best-of-N picks one path: oracle (pass@N upper bound), majority, judge (the judge model picks; its tokens are counted), or { type: verifier, scorer: … }.';
const selector = z
  .union([
    z.enum(['oracle', 'majority', 'verifier', 'judge']),
    z.discriminatedUnion('type', [
      z.strictObject({ type: z.literal('oracle') }),
      z.strictObject({ type: z.literal('majority') }),
      z.strictObject({ type: z.literal('judge'), model: opt(nonEmpty(), 'Judge model (default: models.judge).'), max_tokens: opt(positiveInt(), 'max_tokens of the selection call.', DEFAULTS.judgeMaxTokens) }),
      z.strictObject({ type: z.literal('verifier'), scorer: opt(scorer, 'Scorer the verifier uses (default: the experiment scorer).') }),
    ]),
  ])
  .meta({ description: SELECTOR_HELP });

const RETRIES_HELP = 'Retry policy: max attempts as an integer, or { max_attempts, initial_delay_ms, max_delay_ms }.';
const retries = z
  .union([
    positiveInt(),
    z
      .strictObject({
        max_attempts: opt(positiveInt(), 'Attempts per call including the first.', DEFAULTS.maxAttempts),
        initial_delay_ms: opt(z.int().min(0), 'First backoff delay (ms).', DEFAULTS.initialDelayMs),
        max_delay_ms: opt(z.int().min(0), 'Largest backoff delay (ms).', DEFAULTS.maxDelayMs),
      })
      .superRefine((r, ctx) => {
        if ((r.initial_delay_ms ?? DEFAULTS.initialDelayMs) > (r.max_delay_ms ?? DEFAULTS.maxDelayMs)) {
          ctx.addIssue({ code: 'custom', path: ['initial_delay_ms'], message: 'initial_delay_ms exceeds max_delay_ms', params: { hint: 'the first delay must not exceed the largest delay' } });
        }
      }),
  ])
  .meta({ description: RETRIES_HELP });

export const experimentSchema = z
  .strictObject({
    experiment: z.string().regex(ID, { error: 'must start with a letter or digit and use only letters, digits, . _ -' })
      .meta({ description: 'Experiment name, e.g. date-parser (letters, digits, . _ -).' }),
    provider,
    models: opt(
      z.strictObject({
        candidate: opt(nonEmpty(), 'Candidate model (also the baseline\'s unless models.baseline is set).'),
        baseline: opt(nonEmpty(), 'Baseline model.'),
        judge: opt(nonEmpty(), 'Judge model.'),
        proposer: opt(nonEmpty(), 'Model that proposes skill edits in `isobudget evolve`.'),
      }),
      'Model names.',
    ),
    variants: opt(z.strictObject({ baseline: opt(variant, 'The baseline configuration.'), candidate: opt(variant, 'The candidate configuration.') }), 'The two configurations compared; default: same model, no prompt.'),
    budget: opt(budget, 'The token budget every arm gets per case.'),
    datasets,
    gates: opt(gates, 'Verdict thresholds.'),
    executor: opt(
      z.union([z.literal('chat'), z.discriminatedUnion('type', [z.strictObject({ type: z.literal('chat') }), agentExecutorSchema, commandExecutorSchema])]),
      'How a path runs: `chat` (one model call per path), { type: agent, tools: […] } (a tool loop) or { type: command, argv: […] } (an external agent behind the gateway).',
      DEFAULTS.executor,
    ),
    scorer: opt(scorer, SCORER_HELP, DEFAULTS.scorer),
    selector: opt(selector, SELECTOR_HELP, DEFAULTS.selector),
    epochs: opt(positiveInt(), 'Repeats of the n=1 arms, for precision.', DEFAULTS.epochs),
    seed: opt(z.int().min(0), 'Seed of sampling, bootstrap and simulator.', DEFAULTS.seed),
    concurrency: opt(z.int().min(1).max(1024), 'Maximum model calls in flight (1–1024).', DEFAULTS.concurrency),
    rate_limit: opt(z.strictObject({
      requests_per_second: z.number().positive().optional().meta({ description: 'Requests per second across the run (every worker of a distributed run together).' }),
      requests_per_minute: z.number().positive().optional().meta({ description: 'Requests per minute across the run (instead of requests_per_second).' }),
      tokens_per_minute: z.number().positive().optional().meta({ description: 'Tokens per minute across the run: each request counts its most (prompt estimate + max_tokens × paths).' }),
    }).refine((v) => !(v.requests_per_second !== undefined && v.requests_per_minute !== undefined), { message: 'give requests_per_second or requests_per_minute, not both' })
      .refine((v) => v.requests_per_second !== undefined || v.requests_per_minute !== undefined || v.tokens_per_minute !== undefined, { message: 'give requests_per_second, requests_per_minute or tokens_per_minute' }),
    'Provider limits for the whole run (a 429 with retry-after pauses every worker of it); default: none.'),
    retries: opt(retries, RETRIES_HELP, DEFAULTS.maxAttempts),
    n_mode: opt(z.enum(['native', 'parallel']), 'native: one call with API n; parallel: n calls.', DEFAULTS.nMode),
    sequential: opt(sequential, 'Sequential screening (also `run --sequential`): stop scheduling cases once an anytime-valid test decides.'),
    evolve: opt(evolveSchema(provider), 'The self-evolution loop (`isobudget evolve`).'),
    pricing: opt(pricingSchema, PRICING_HELP),
  })
  .meta({ title: 'isobudget experiment', description: 'Same cases, same token budget: baseline vs candidate, Best-of-N off and on.' });

/** The validated YAML, before defaults and path resolution. */
export type RawExperimentConfig = z.infer<typeof experimentSchema>;
export type RawScorer = z.infer<typeof scorer>;
