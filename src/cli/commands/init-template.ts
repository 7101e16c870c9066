/**
 * The experiment.yaml `isobudget init` writes: every section of the schema, the values it
 * sets uncommented, every other key commented out with its default (from config/defaults, so
 * the file and the loader never disagree). Pure text.
 */
import { DEFAULTS } from '../../config/defaults.js';
import { PRESET_NAMES, PRESETS, type PresetName } from '../../config/presets.js';
import { TOOL_VERSION } from '../../version.js';

export const SCHEMA_FILE = 'experiment.schema.json';

/** A model to start with per preset (edit it): one the dated price table knows, so cost shows. */
export const STARTER_MODELS: Readonly<Record<PresetName, { candidate: string; judge: string }>> = {
  sim: { candidate: 'sim-small', judge: 'sim-judge' },
  openai: { candidate: 'gpt-5-mini', judge: 'gpt-5-mini' },
  anthropic: { candidate: 'claude-haiku-4-5', judge: 'claude-haiku-4-5' },
  taotoken: { candidate: 'gpt-5-mini', judge: 'gpt-5-mini' },
  openrouter: { candidate: 'openai/gpt-5-mini', judge: 'openai/gpt-5-mini' },
  deepseek: { candidate: 'deepseek-v4-flash', judge: 'deepseek-v4-flash' },
};

export interface TemplateOptions {
  name: string;
  preset: PresetName;
  /** YAML for `scorer:` (one line), and a comment above it. */
  scorer: { yaml: string; comment: string };
  /** Where the data came from, one comment line. */
  dataNote: string;
}

/** A YAML line with its comment aligned at column 40. */
const c = (code: string, comment: string): string => `${code.padEnd(39)} # ${comment}`;

const flow = (values: readonly unknown[]): string => `[${values.join(', ')}]`;

export function experimentYaml(o: TemplateOptions): string {
  const preset = PRESETS[o.preset];
  const models = STARTER_MODELS[o.preset];
  const key = preset.apiKeyEnv;
  const d = DEFAULTS;
  return `# yaml-language-server: $schema=./${SCHEMA_FILE}
# An isobudget experiment, written by \`isobudget init\` (isobudget ${TOOL_VERSION}).
# Same cases, same token budget per case: baseline vs candidate, Best-of-N off (n=1) and on.
# Every section is here; a commented key shows its default. \`isobudget schema\` describes them all.
experiment: ${o.name}

# Where model calls go. Presets: ${PRESET_NAMES.join(', ')}.
provider:
${o.preset === 'sim' ? c('  preset: sim', 'the embedded simulator: no key, no network') : `  preset: ${o.preset}`}
${c(`  # protocol: ${preset.protocol}`, `${['openai-chat', 'openai-responses', 'anthropic-messages', 'sim'].join(' | ')}; the preset sets it`)}
${c(`  # base_url: ${preset.baseUrl}`, 'the preset sets it')}
${key === undefined ? c('  # api_key_env: MY_API_KEY', 'NAME of the variable holding the key, never the key') : c(`  # api_key_env: ${key}`, `the preset sets it; export ${key}=… before \`run\``)}
${c(`  # timeout_ms: ${d.timeoutMs}`, `per attempt`)}
${c(`  # headers: { X-Team: evals }`, `never credentials`)}

models:
${c(`  candidate: ${models.candidate}`, 'the baseline\'s too, unless models.baseline is set')}
  # baseline: ${models.candidate}
${c(`  judge: ${models.judge}`, 'judge scorers and selectors')}
${c(`  # proposer: sim-proposer`, `\`isobudget evolve\``)}

# The two configurations compared. A skill is a Markdown file with front matter (name,
# description, version): the system prompt, and what \`isobudget gate\` promotes.
variants:
  baseline:  { id: ${o.name}-baseline, skill: skills/baseline.md, temperature: ${d.temperature} }
  candidate: { id: ${o.name}-candidate, skill: skills/candidate.md, temperature: ${d.temperature} }
${c(`  # model: …`, `per variant, over models.*;  system_prompt: "…" instead of skill`)}

# B: the tokens one case may spend in one arm, prompt + completion, every call and path.
# Every arm gets the same B; at n=N each path gets about B/N.
budget:
${c(`  total_tokens_per_case: 2000`, `default ${d.totalTokensPerCase}`)}
${c(`  # per_case_max_tokens: ${d.perCaseMaxTokens}`, `one path's max_tokens at most; default min(${d.perCaseMaxTokens}, B)`)}
${c(`  best_of_n: [1, 4]`, `default ${flow(d.bestOfN)}; n=1 is always run`)}
${c(`  # include_judge: ${d.includeJudge}`, `count judge tokens toward B`)}
${c(`  # max_total_tokens: 2000000`, `run-level cap over every call; the run stops starting units that could cross it`)}
${c(`  # max_cost_usd: 20`, `run-level cap in USD at the price table`)}

# JSONL (or .csv, .jsonl.gz), relative to this file.
# ${o.dataNote}
# Train/val/test must be disjoint (checked): run screens on val, \`gate\` uses test.
datasets:
${c(`  train: data/train.jsonl`, `diagnose failures (\`evolve\`)`)}
${c(`  val: data/val.jsonl`, `screen candidates (\`run\`)`)}
${c(`  test: data/test.jsonl`, `the final gate (\`gate\`)`)}
${c(`  # regression: data/regression.jsonl`, `cases the baseline passes; the candidate must too`)}
${c('  # fields: { input: question, expected: answer }', 'other key names; dotted paths (meta.id) work')}
${c(`  # refresh: { train: ${d.refresh.train}, val: ${d.refresh.val}, test: ${d.refresh.test} }`, `\`datasets add-failures\``)}

# The verdict's thresholds.
gates:
${c(`  min_same_budget_gain: ${d.minSameBudgetGain}`, `n=1 pass-rate gain needed at the same B`)}
${c(`  max_token_growth_ratio: ${d.maxTokenGrowthRatio}`, `tokens per success, candidate / baseline`)}
${c(`  max_latency_growth_ratio: ${d.maxLatencyGrowthRatio}`, `p95 latency, candidate / baseline`)}
  bootstrap_rounds: ${d.bootstrapRounds}
  # confidence: ${d.confidence}
${c(`  # max_error_rate: ${d.maxErrorRate}`, `share of errored paths before \`invalid\``)}

# How a path runs: chat (one call), { type: agent, tools: […] }, { type: command, argv: […] }.
executor: ${d.executor}

# How a path is graded: exact, normalized, contains, regex, numeric, json, judge, module, command.
# ${o.scorer.comment}
scorer: ${o.scorer.yaml}

# How Best-of-N picks one path: oracle (pass@N, an upper bound), majority, judge, { type: verifier }.
${c(`selector: majority`, `default ${d.selector}`)}

${c(`# epochs: ${d.epochs}`, `repeats of the n=1 arms`)}
${c(`seed: 7`, `default ${d.seed}`)}
${c(`concurrency: 8`, `calls in flight; default ${d.concurrency}`)}
# rate_limit: { requests_per_second: 5 }
# retries: { max_attempts: ${d.maxAttempts}, initial_delay_ms: ${d.initialDelayMs}, max_delay_ms: ${d.maxDelayMs} }
${c(`# n_mode: ${d.nMode}`, `native: one call with n; parallel: n calls`)}

# Sequential screening (\`run --sequential\`): stop once an anytime-valid test decides.
# sequential: { look_every: ${d.sequentialLookEvery}, min_cases: ${d.sequentialMinCases}, gain_confidence: ${d.sequentialGainConfidence}, futility_confidence: ${d.sequentialFutilityConfidence} }

# The self-evolution loop (\`isobudget evolve\`).
# evolve: { proposer: sim-proposer, rounds: ${d.evolveRounds}, candidates_per_round: ${d.evolveCandidates}, screening: ${d.evolveScreening} }

# USD per million tokens, over the dated default table (\`--pricing FILE\` overrides both).
# pricing:
#   ${models.candidate}: { input: 0.25, cached_input: 0.025, output: 2 }
`;
}

/** The two skill files: the baseline shows its working, the candidate answers with the bare result. */
export function skillFiles(name: string, task: 'arithmetic' | 'dataset'): { baseline: string; candidate: string } {
  const skillName = name.toLowerCase().replace(/[^a-z0-9-]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 64) || 'my-skill';
  const what = task === 'arithmetic' ? 'Compute an integer arithmetic expression.' : 'Answer the question of each case.';
  const front = (version: number): string => `---\nname: ${skillName}\ndescription: ${what}\nversion: ${version}\n---\n`;
  return {
    baseline: `${front(1)}# ${task === 'arithmetic' ? 'Arithmetic' : 'Answering'}\n\n${task === 'arithmetic'
      ? 'Work out the expression in the request. Show your work step by step, then give the final answer.\n'
      : 'Read the request and answer it. Explain your reasoning, then give the final answer.\n'}`,
    candidate: `${front(2)}# ${task === 'arithmetic' ? 'Arithmetic' : 'Answering'}\n\n${task === 'arithmetic'
      ? 'Work out the expression in the request. Multiplication before addition and subtraction; parentheses first.\nReply with the number only, no other text.\n'
      : 'Read the request and answer it. Reply with the answer only, no other text.\n'}`,
  };
}
