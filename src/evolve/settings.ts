/**
 * The loop's settings from the config's `evolve:` block, the command-line flags and the
 * defaults — and the checks that make the budget cap hold: a loop needs train (diagnosis),
 * val (screening), a skill file to edit, a proposer, and judge tokens inside B when a judge
 * scores or selects (otherwise a screen's worst case is not bounded by B per unit).
 */
import { DEFAULTS } from '../config/defaults.js';
import { sequentialConfig } from '../config/normalize.js';
import type { EvolveScreening, ExperimentConfig } from '../config/types.js';
import { IsobudgetError } from '../core/errors.js';
import { familyConfidence, screenBootstrapRounds, screenConfidence } from './decide.js';
import type { EvolveSettings } from './types.js';

export interface EvolveFlags {
  rounds?: number;
  candidates?: number;
  budgetTokens?: number;
  screening?: EvolveScreening;
}

export function evolveSettings(config: ExperimentConfig, flags: EvolveFlags = {}): EvolveSettings {
  const block = config.evolve;
  const problem = (key: string, message: string, hint: string): never => {
    throw new IsobudgetError('evolve_config', message, { location: { file: config.configPath, key }, hint });
  };
  const proposer = block?.proposer ?? config.models.proposer;
  if (proposer === undefined) problem('evolve.proposer', 'no proposer model for `isobudget evolve`', 'set `evolve.proposer: <model>` or `models.proposer: <model>` (on the simulator: sim-proposer)');
  if (config.datasets.train === undefined) problem('datasets.train', '`isobudget evolve` diagnoses failures on the train split, and datasets.train is not set', 'add `train: path/to/train.jsonl` under `datasets:`');
  if (config.datasets.val === undefined) problem('datasets.val', '`isobudget evolve` screens candidates on the val split, and datasets.val is not set', 'add `val: path/to/val.jsonl` under `datasets:`');
  if (config.variants.baseline.skillFile === undefined) problem('variants.baseline.skill', 'the loop edits a skill file, and the baseline variant has none', 'set `variants.baseline.skill: skills/<name>.md` (Markdown with name, description and version front matter)');
  const judged = config.scorer.type === 'judge' || config.selector.type === 'judge';
  if (judged && !config.budget.includeJudge) problem('budget.include_judge', 'a judge scores or selects, but its tokens are outside B: the loop could not bound a screen\'s tokens by B per case', 'set `budget.include_judge: true` for `isobudget evolve`');
  const rounds = flags.rounds ?? block?.rounds ?? DEFAULTS.evolveRounds;
  const candidatesPerRound = flags.candidates ?? block?.candidatesPerRound ?? DEFAULTS.evolveCandidates;
  if (rounds < 1) problem('evolve.rounds', `--rounds must be at least 1, got ${rounds}`, 'give a positive number of rounds');
  if (candidatesPerRound < 1) problem('evolve.candidates_per_round', `--candidates must be at least 1, got ${candidatesPerRound}`, 'give a positive number of candidates per round');
  const screening = flags.screening ?? block?.screening ?? DEFAULTS.evolveScreening;
  const familyAlpha = 1 - familyConfidence(screening, config.gates.confidence, config.sequential?.confidence);
  const plannedScreens = rounds * candidatesPerRound;
  const confidence = screenConfidence(familyAlpha, plannedScreens);
  return {
    rounds,
    candidatesPerRound,
    budgetTokens: flags.budgetTokens ?? block?.budgetTokens ?? null,
    failuresPerPrompt: block?.failuresPerPrompt ?? DEFAULTS.evolveFailuresPerPrompt,
    maxSkillGrowth: block?.maxSkillGrowth ?? DEFAULTS.evolveMaxSkillGrowth,
    stopAfterNoGain: block?.stopAfterNoGain ?? DEFAULTS.evolveStopAfterNoGain,
    proposer: proposer as string,
    proposerMaxTokens: block?.maxTokens ?? DEFAULTS.evolveProposerMaxTokens,
    proposerTemperature: block?.temperature ?? DEFAULTS.evolveProposerTemperature,
    familyAlpha,
    plannedScreens,
    screenConfidence: confidence,
    screenBootstrapRounds: screenBootstrapRounds(config.gates.bootstrapRounds, familyAlpha, plannedScreens),
    screening,
    // Bonferroni on the anytime-valid level: each screen's CS at 1 − α/m (decide.ts).
    sequential: screening === 'sequential' ? { ...(config.sequential ?? sequentialConfig({})), confidence } : null,
  };
}
