/** `isobudget validate FILE` — config, skill files, datasets and split hygiene, no calls. */
import { resolve } from 'node:path';
import { loadConfig } from '../../config/index.js';
import { IsobudgetError } from '../../core/errors.js';
import { loadRunInputs } from '../../runner/inputs.js';
import { parseCommandArgs } from '../args.js';
import { EXIT } from '../exit-codes.js';
import type { CommandSpec } from './spec.js';

const USAGE = 'isobudget validate EXPERIMENT.yaml [--config-only] [--allow-overlap]';

export const validateCommand: CommandSpec = {
  summary: 'check an experiment: config keys, skill files, datasets, split overlap (no model calls)',
  async run(argv, io) {
    const { positionals, values } = parseCommandArgs('validate', argv, {
      'config-only': { type: 'boolean' },
      'allow-overlap': { type: 'boolean' },
    }, USAGE);
    const file = positionals[0];
    if (!file) throw new IsobudgetError('usage', 'validate: missing EXPERIMENT.yaml', { hint: USAGE });
    const config = await loadConfig(resolve(io.cwd, file));
    io.stdout.write(`config ok: ${config.experiment} (${config.provider.protocol} ${config.provider.baseUrl}, B=${config.budget.totalTokensPerCase}, n ∈ {${config.budget.bestOfN.join(', ')}})\n`);
    if (values['config-only']) return EXIT.ok;
    const split = config.datasets.val ? 'val' : 'test';
    const inputs = await loadRunInputs(config, split, values['allow-overlap'] === true);
    for (const [name, info] of Object.entries(inputs.datasets)) io.stdout.write(`dataset ok: ${name} ${info.cases} cases (${info.path})\n`);
    for (const leak of inputs.overlap) io.stdout.write(`overlap (allowed): ${leak}\n`);
    return EXIT.ok;
  },
};
