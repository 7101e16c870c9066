/**
 * Every default of the experiment config in one place: the schema shows them to editors
 * (JSON Schema `default`) and `normalize` applies them.
 */
export const DEFAULTS = {
  protocol: 'openai-chat',
  simBaseUrl: 'sim://local',
  /** Per-attempt HTTP timeout (ms). */
  timeoutMs: 60_000,
  baselineId: 'baseline',
  candidateId: 'candidate',
  /** The seed's sampling temperature. */
  temperature: 0.2,
  /** Budget B per case and arm (tokens). */
  totalTokensPerCase: 200_000,
  /** Cap on one path's max_tokens (tokens); never above B. */
  perCaseMaxTokens: 4096,
  bestOfN: [1, 4, 8],
  includeJudge: false,
  minSameBudgetGain: 0.08,
  maxTokenGrowthRatio: 1.15,
  maxLatencyGrowthRatio: 1.3,
  bootstrapRounds: 2000,
  confidence: 0.95,
  /** Share of an arm's paths that may end in an error (provider, scorer, timeout) before the verdict is `invalid`. */
  maxErrorRate: 0.05,
  executor: 'chat',
  /** `agent` executor: model calls per path at most, and one tool call's time limit (ms). */
  agentMaxTurns: 8,
  toolTimeoutMs: 5_000,
  scorer: 'normalized',
  selector: 'oracle',
  containsIgnoreCase: true,
  regexFlags: '',
  numericTolerance: 1e-6,
  numericRelative: false,
  moduleExport: 'default',
  /** What a judge scores; the first dimension decides pass/fail (the seed's intent dimensions follow). */
  judgeDimensions: ['correctness', 'conciseness', 'format', 'tone', 'budget_friendliness'],
  judgePassThreshold: 0.5,
  /** max_tokens of a judge or selection call (tokens). */
  judgeMaxTokens: 512,
  /** Timeout of a `command` scorer (ms). */
  commandTimeoutMs: 10_000,
  epochs: 1,
  seed: 0,
  concurrency: 8,
  maxAttempts: 5,
  /** Retry backoff (ms). */
  initialDelayMs: 500,
  maxDelayMs: 30_000,
  nMode: 'native',
  /** Sequential screening (issue 14): cases per block, and the first look (cases). */
  sequentialLookEvery: 20,
  sequentialMinCases: 40,
  /** One-sided confidence that the gain is ≥ min_same_budget_gain before an efficacy stop. */
  sequentialGainConfidence: 0.8,
  /** One-sided confidence that the gain is < min_same_budget_gain before a futility stop. */
  sequentialFutilityConfidence: 0.6,
  /** `evolve:` (the self-evolution loop). */
  evolveRounds: 5,
  evolveCandidates: 2,
  evolveFailuresPerPrompt: 12,
  evolveMaxSkillGrowth: 1.25,
  evolveStopAfterNoGain: 3,
  /** max_tokens of one proposer call (tokens). */
  evolveProposerMaxTokens: 4096,
  evolveProposerTemperature: 0.7,
  /** Screening of the loop's candidates: the sequential run of issue 14 (`fixed`: every val case). */
  evolveScreening: 'sequential',
  /** `datasets.refresh`: where `datasets add-failures` sends new cases. */
  refresh: { train: 0.5, val: 0.25, test: 0.25 },
} as const;
