/** `isobudget validate FILE` — config, skill files, datasets and split hygiene, no calls. */
import { readFileSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import { loadConfig, readApiKey } from '../../config/index.js';
import type { ExperimentConfig } from '../../config/types.js';
import { IsobudgetError, IsobudgetErrors } from '../../core/errors.js';
import { undeclaredClusterWarning } from '../../datasets/near-duplicates.js';
import { checkSkillFile } from '../../gates/skill-file.js';
import { comparisonErrors } from '../../config/comparison-errors.js';
import { loadRunInputs } from '../../runner/inputs.js';
import { parseCommandArgs } from '../args.js';
import { EXIT } from '../exit-codes.js';
import type { CommandSpec } from './spec.js';
import { commandArgvProblem } from './command-argv-check.js';

const USAGE = `isobudget validate EXPERIMENT.yaml [--config-only] [--allow-overlap] [--strict]
  warns (exit 0) about what a later command will stop on: an API key variable that is not set
  (run, doctor), a candidate skill without valid front matter (gate, layer 1), baseline and candidate
  that are the same agent (same prompt, model and settings, or a command agent the skill never reaches);
  --strict makes every warning an error (exit 2)`;

export const validateCommand: CommandSpec = {
  summary: 'check an experiment: config keys, skill files, datasets, split overlap, key variables (no model calls)',
  async run(argv, io) {
    const { positionals, values } = parseCommandArgs('validate', argv, {
      'config-only': { type: 'boolean', help: 'check the config and skill files only, not the datasets' },
      'allow-overlap': { type: 'boolean', help: 'accept cases shared between train/val/test (listed, not an error)' },
      strict: { type: 'boolean', help: 'make every warning an error (exit 2)' },
    }, USAGE);
    const file = positionals[0];
    if (!file) throw new IsobudgetError('usage', 'validate: missing EXPERIMENT.yaml', { hint: USAGE });
    const config = await loadConfig(resolve(io.cwd, file));
    const missingProgram = commandArgvProblem(config, io.env);
    if (missingProgram !== undefined) throw missingProgram;
    io.stdout.write(`config ok: ${config.experiment} (${config.provider.protocol} ${config.provider.baseUrl}, B=${config.budget.totalTokensPerCase}, n ∈ {${config.budget.bestOfN.join(', ')}})\n`);
    const warnings = [...keyWarnings(config, io.env), ...skillWarnings(config, io.cwd), ...comparisonErrors(config)];
    if (!values['config-only']) {
      const split = config.datasets.val ? 'val' : 'test';
      const inputs = await loadRunInputs(config, split, values['allow-overlap'] === true);
      for (const [name, info] of Object.entries(inputs.datasets)) io.stdout.write(`dataset ok: ${name} ${info.cases} cases (${info.path})\n`);
      for (const leak of inputs.overlap) io.stdout.write(`overlap (allowed): ${leak}\n`);
      warnings.push(...(inputs.warnings ?? []).map((warning) => new IsobudgetError('dataset_ids_hashed', warning)));
      const clusters = undeclaredClusterWarning(inputs.cases, { file: inputs.datasets[split]?.path ?? config.configPath, split });
      if (clusters) warnings.push(clusters);
    }
    if (warnings.length > 0 && values.strict === true) throw new IsobudgetErrors(warnings);
    for (const warning of warnings) io.stderr.write(`warning: ${warning.format()}\n`);
    return EXIT.ok;
  },
};

/** The provider's key variable (and the command executor's upstream key) unset: `run` and `doctor` stop on it. */
function keyWarnings(config: ExperimentConfig, env: NodeJS.ProcessEnv): IsobudgetError[] {
  const warnings: IsobudgetError[] = [];
  const check = (provider: ExperimentConfig['provider'], key: string): void => {
    try {
      readApiKey({ provider, configPath: config.configPath }, env);
    } catch (error) {
      if (!(error instanceof IsobudgetError) || error.code !== 'api_key_missing') throw error;
      warnings.push(new IsobudgetError('api_key_missing', `${error.message}: \`run\` and \`doctor\` stop on it`, { location: { file: config.configPath, key }, ...(error.hint === undefined ? {} : { hint: error.hint }) }));
    }
  };
  check(config.provider, 'provider.api_key_env');
  const executor = config.executor;
  if (executor.type === 'command' && executor.gateway.apiKeyEnv !== undefined && executor.gateway.apiKeyEnv !== config.provider.apiKeyEnv) {
    check({ ...config.provider, protocol: 'openai-chat', apiKeyEnv: executor.gateway.apiKeyEnv }, 'executor.gateway.api_key_env');
  }
  return warnings;
}

/** What gate layer 1 will fail on: the candidate as a skill file with front matter `name`, `description`, `version`. */
function skillWarnings(config: ExperimentConfig, cwd: string): IsobudgetError[] {
  const candidate = config.variants.candidate;
  const hint = '`isobudget gate` fails on this (layer 1, the skill file\'s format); `run` does not need it';
  if (candidate.skillFile === undefined) {
    return [new IsobudgetError('skill_file_missing', 'the candidate variant has no skill file (a Markdown skill with front matter)', { location: { file: config.configPath, key: 'variants.candidate.skill' }, hint })];
  }
  const shown = relative(cwd, candidate.skillFile).startsWith('..') ? candidate.skillFile : relative(cwd, candidate.skillFile);
  return checkSkillFile(readFileSync(candidate.skillFile, 'utf8'), shown).problems.map((problem) => new IsobudgetError('skill_front_matter', problem, { hint }));
}
