/** The `evolve:` YAML block → `EvolveConfig` (defaults are applied later, with the CLI flags, by `evolveSettings`). */
import type { RawExperimentConfig } from './schema.js';
import type { EvolveConfig, ProviderConfig, SplitShares } from './types.js';
import { DEFAULTS } from './defaults.js';

type RawEvolve = NonNullable<RawExperimentConfig['evolve']>;

export function normalizeEvolve(raw: RawEvolve, modelsProposer: string | undefined, provider: (raw: RawExperimentConfig['provider']) => ProviderConfig): EvolveConfig {
  return {
    proposer: raw.proposer ?? modelsProposer,
    provider: raw.provider === undefined ? undefined : provider(raw.provider),
    rounds: raw.rounds,
    candidatesPerRound: raw.candidates_per_round,
    budgetTokens: raw.budget_tokens,
    failuresPerPrompt: raw.failures_per_prompt,
    maxSkillGrowth: raw.max_skill_growth,
    stopAfterNoGain: raw.stop_after_no_gain,
    maxTokens: raw.max_tokens,
    temperature: raw.temperature,
    screening: raw.screening,
  };
}

export function normalizeRefresh(raw: NonNullable<RawExperimentConfig['datasets']['refresh']>): SplitShares {
  return { train: raw.train ?? DEFAULTS.refresh.train, val: raw.val ?? DEFAULTS.refresh.val, test: raw.test ?? DEFAULTS.refresh.test };
}
