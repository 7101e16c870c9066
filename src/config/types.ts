/**
 * The normalized experiment config: what every stage after `loadConfig` sees.
 * Paths are absolute; defaults are filled in; secrets are not here (only the env var name).
 */
import type { ModelPrice } from '../pricing/price-table.js';
import type { Protocol } from '../providers/spec.js';

export interface ProviderConfig {
  protocol: Protocol;
  /** Base URL exactly as configured (recorded in the ledger). */
  baseUrl: string;
  /** Name of the env var holding the API key; the key itself is read at call time in config/. */
  apiKeyEnv: string | undefined;
  /** Preset name the provider came from, if any. */
  preset: string | undefined;
  /** Per-attempt timeout (ms). */
  timeoutMs: number;
  /** Extra HTTP headers sent upstream (never secrets: use apiKeyEnv). */
  headers: Record<string, string>;
}

export interface VariantConfig {
  /** Stable id used in verdicts and memory, e.g. `skill-date-parser-v3`. */
  id: string;
  model: string;
  /** Skill text used as the system prompt ('' when none). */
  systemPrompt: string;
  /** Absolute path of the skill file, when the prompt came from one. */
  skillFile: string | undefined;
  temperature: number;
}

export type ScorerConfig = (
  | { type: 'exact'; field?: string }
  | { type: 'normalized'; field?: string }
  | { type: 'contains'; field?: string; ignoreCase: boolean }
  | { type: 'regex'; pattern?: string; flags: string }
  | { type: 'numeric'; tolerance: number; relative: boolean }
  | { type: 'json'; fields?: string[]; schema?: Record<string, unknown> }
  | { type: 'module'; module: string; export: string }
  | { type: 'command'; argv: string[]; timeoutMs: number }
  | { type: 'judge'; model: string; rubric: string; dimensions: string[]; passThreshold: number; maxTokens: number }
) & {
  /**
   * `output_field`: a dotted path (core/output-field.ts) into the output parsed as JSON; the
   * value found there is what the scorer sees. `field`, where a scorer has it, reads `expected`.
   */
  outputField?: string;
  /**
   * `expected_pattern` (exact, normalized, contains, numeric): a regex over the expected text;
   * its first group is the value compared (GSM8K's `#### 42`).
   */
  expectedPattern?: string;
};

export type SelectorConfig =
  | { type: 'oracle' }
  | { type: 'majority' }
  | { type: 'judge'; model: string; maxTokens: number }
  | { type: 'verifier'; scorer: ScorerConfig | undefined };

/** A tool the agent executor offers: a module export or a command (DESIGN §2). */
export interface ToolConfig {
  name: string;
  description: string;
  /** JSON Schema of the arguments object. */
  parameters: Record<string, unknown>;
  /** Absolute module path and export name, or an argv (no shell; arguments JSON appended). */
  source: { kind: 'module'; module: string; export: string } | { kind: 'command'; argv: string[] };
}

export interface AgentExecutorConfig {
  type: 'agent';
  /** Model calls per path at most, the final answer included. */
  maxTurns: number;
  /** Wall-clock limit of one tool call (ms). */
  toolTimeoutMs: number;
  tools: ToolConfig[];
}

/** An external agent run per path behind the gateway (Claude Code, Codex, any CLI). */
export interface CommandExecutorConfig {
  type: 'command';
  /** Program and arguments, no shell; `{{input}}`, `{{case_id}}`, `{{workdir}}`, … are substituted. */
  argv: string[];
  /** Absolute folder copied into each path's fresh working directory. */
  fixtureDir: string | undefined;
  /** Wall-clock limit of one path (ms); then its process group is killed. */
  timeoutMs: number;
  /** Where a path's answer is read: the agent's stdout, or a file in its working directory. */
  output: { kind: 'stdout' } | { kind: 'file'; path: string };
  /** Extra environment for the agent (never credentials). */
  env: Record<string, string>;
  /** Variables passed through from isobudget's own environment. */
  inheritEnv: string[];
  keepWorkdirs: boolean;
  gateway: {
    /** Upstream base URL; undefined: provider.base_url (an in-process simulator for protocol sim). */
    upstream: string | undefined;
    /** Env var of the upstream key; undefined: provider.api_key_env. */
    apiKeyEnv: string | undefined;
    upstreamAuth: 'auto' | 'bearer' | 'x-api-key';
  };
}

export interface RetryConfig {
  /** Attempts per call including the first. */
  maxAttempts: number;
  initialDelayMs: number;
  maxDelayMs: number;
}

export interface GatesConfig {
  minSameBudgetGain: number;
  maxTokenGrowthRatio: number;
  maxLatencyGrowthRatio: number;
  bootstrapRounds: number;
  /** Two-sided confidence level of every interval (0.95 → 95% CIs). */
  confidence: number;
  /**
   * Largest share (0–1) of any arm's paths that may end in a provider error, a scorer error or
   * a timeout before the verdict is `invalid`. Undefined: DEFAULTS.maxErrorRate (0.05) — left
   * unset unless configured, so configs that do not name it keep their hash.
   */
  maxErrorRate?: number;
  /**
   * Confidence of the n=1 delta interval whose lower bound `real_evolution` needs above 0
   * (default: `confidence`). Not a YAML key: a caller that screens many candidates on one
   * split (`evolve`) passes a level corrected for all of them; every other interval keeps
   * `confidence`.
   */
  gainConfidence?: number;
}

/** Sequential screening (issue 14): look after each block, stop once the answer is decided. */
export interface SequentialConfig {
  /** Cases per block; the test is read after each block (cases). */
  lookEvery: number;
  /** No look before this many cases (cases). */
  minCases: number;
  /** One-sided confidence that the n=1 gain is ≥ min_same_budget_gain before stopping for efficacy. */
  gainConfidence: number;
  /** One-sided confidence that the n=1 gain is < min_same_budget_gain before stopping for futility. */
  futilityConfidence: number;
  /** Two-sided confidence of the anytime-valid CS; undefined: gates.confidence. */
  confidence?: number | undefined;
}

export interface BudgetConfig {
  /** B: tokens one case may consume in one arm, every call and path (tokens). */
  totalTokensPerCase: number;
  /** Upper bound on any single path's max_tokens (tokens). */
  perCaseMaxTokens: number;
  /** Every n to evaluate; 1 is always included. */
  bestOfN: number[];
  /** Whether judge tokens count toward B (judge issue); reported either way. */
  includeJudge: boolean;
  /** `budget.max_total_tokens`: run-level cap over every call of the run (tokens); absent: none. */
  maxTotalTokens?: number;
  /** `budget.max_cost_usd`: run-level cap at the price table (USD); absent: none. */
  maxCostUsd?: number;
}

export type SplitName = 'train' | 'val' | 'test';

export interface DatasetsConfig {
  train: string | undefined;
  val: string | undefined;
  test: string | undefined;
  regression: string | undefined;
  /** Shares of new production failures per split (`datasets add-failures`); absent: the defaults. */
  refresh?: SplitShares;
  /** `datasets.fields`: role (id, input, expected, category, cluster) → dotted path into each row; absent: isobudget's names. */
  fields?: Partial<Record<'id' | 'input' | 'expected' | 'category' | 'cluster', string>>;
}

/** Shares (0–1, summing to 1) of train, val and test. */
export interface SplitShares {
  train: number;
  val: number;
  test: number;
}

/** The `evolve:` block as given; `evolveSettings` (src/evolve) applies defaults and CLI flags. */
export interface EvolveConfig {
  /** Proposer model: `evolve.proposer`, else `models.proposer`. */
  proposer: string | undefined;
  /** The proposer's own provider; undefined: the experiment's provider. */
  provider: ProviderConfig | undefined;
  rounds: number | undefined;
  candidatesPerRound: number | undefined;
  /** Cap on all the loop's tokens (tokens); undefined: no cap. */
  budgetTokens: number | undefined;
  failuresPerPrompt: number | undefined;
  /** Candidate skill tokens ≤ this × the starting skill's tokens. */
  maxSkillGrowth: number | undefined;
  stopAfterNoGain: number | undefined;
  /** max_tokens of one proposer call (tokens). */
  maxTokens: number | undefined;
  temperature: number | undefined;
  /** How each candidate is screened on val: `sequential` (issue 14, the default) or `fixed` (every case). */
  screening: EvolveScreening | undefined;
}

/** A loop's screening: the anytime-valid sequential run, or the fixed-sample run of the whole split. */
export type EvolveScreening = 'sequential' | 'fixed';

export interface ExperimentConfig {
  experiment: string;
  /** Absolute path of the YAML file. */
  configPath: string;
  provider: ProviderConfig;
  models: { candidate: string | undefined; baseline: string | undefined; judge: string | undefined; proposer?: string | undefined };
  budget: BudgetConfig;
  datasets: DatasetsConfig;
  gates: GatesConfig;
  variants: { baseline: VariantConfig; candidate: VariantConfig };
  executor: { type: 'chat' } | AgentExecutorConfig | CommandExecutorConfig;
  scorer: ScorerConfig;
  selector: SelectorConfig;
  /** Repeats of the n=1 arms, for precision. */
  epochs: number;
  seed: number;
  /** Maximum model calls in flight. */
  concurrency: number;
  /** Requests per second across the run; undefined = unlimited. */
  rateLimit: number | undefined;
  /** Tokens per minute across the run (`rate_limit.tokens_per_minute`); undefined = unlimited. */
  tokenRateLimit?: number | undefined;
  retries: RetryConfig;
  /** `native`: one call with API `n`; `parallel`: n calls. */
  nMode: 'native' | 'parallel';
  /** Sequential screening, when the config has a `sequential:` block (`run --sequential` adds the defaults). */
  sequential?: SequentialConfig | undefined;
  /** The `evolve:` block, when the YAML has one (absent keys stay out of the config hash). */
  evolve?: EvolveConfig;
  /**
   * `pricing:` — model → USD per million tokens, over the dated default table. Left unset
   * unless configured, so configs without it keep their config hash (old runs resume).
   */
  pricing?: Record<string, ModelPrice>;
}
