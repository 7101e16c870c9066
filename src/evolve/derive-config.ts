/**
 * The run inputs of the loop's steps, derived from the experiment: the same provider, budget,
 * scorer, selector and datasets; only the variants change. A screen puts the incumbent in the
 * baseline arms and the candidate in the candidate arms (same model and temperature: only the
 * skill differs); the diagnosis runs the incumbent alone, at n=1, on train, without the
 * regression set. Derived configs drop the `evolve:` block, so a run's config hash depends on
 * what decides its outcomes only.
 */
import type { ExperimentConfig, VariantConfig } from '../config/types.js';
import type { RunInputs } from '../runner/inputs.js';
import { configHash } from '../runner/inputs.js';
import type { SkillVersion } from './types.js';

export interface SkillFileVersion extends SkillVersion {
  /** Where the text is on disk (a candidate's copy under round-<r>/candidates/). */
  file: string;
}

function variantOf(config: ExperimentConfig, skill: SkillFileVersion): VariantConfig {
  const base = config.variants.baseline;
  return { id: skill.variantId, model: base.model, systemPrompt: skill.text, skillFile: skill.file, temperature: base.temperature };
}

function derived(config: ExperimentConfig, change: Partial<ExperimentConfig>, concurrency: number | undefined): ExperimentConfig {
  const { evolve: _evolve, ...rest } = config;
  return { ...rest, ...change, ...(concurrency === undefined ? {} : { concurrency: Math.max(1, concurrency) }) };
}

/** Inputs whose config was replaced must get the new config's hash (resume compares it). */
function withConfig(inputs: RunInputs, config: ExperimentConfig): RunInputs {
  return { ...inputs, config, configHash: configHash(config) };
}

export function screenInputs(base: RunInputs, incumbent: SkillFileVersion, candidate: SkillFileVersion, concurrency: number | undefined): RunInputs {
  const config = derived(base.config, { variants: { baseline: variantOf(base.config, incumbent), candidate: variantOf(base.config, candidate) } }, concurrency);
  return withConfig({ ...base, split: 'val', cases: base.cases }, config);
}

export function diagnoseInputs(train: RunInputs, incumbent: SkillFileVersion, concurrency: number | undefined): RunInputs {
  const variant = variantOf(train.config, incumbent);
  const config = derived(train.config, { variants: { baseline: variant, candidate: { ...variant, id: `${variant.id}-unused` } }, budget: { ...train.config.budget, bestOfN: [1] }, epochs: 1 }, concurrency);
  return withConfig({ ...train, split: 'train', regressionCases: [], variants: ['baseline'] }, config);
}
