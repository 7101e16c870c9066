/**
 * `isobudget datasets add-failures EVENTS.jsonl --experiment EXPERIMENT.yaml`: production
 * failures flow back into the splits, each with the budget and n it failed at.
 */
import { resolve } from 'node:path';
import { loadConfig } from '../../config/index.js';
import { IsobudgetError } from '../../core/errors.js';
import { addFailures } from '../../datasets/failures/add-failures.js';
import { parseCommandArgs, unknownSubcommand } from '../args.js';
import { JSON_OPTION } from '../common-options.js';
import { EXIT } from '../exit-codes.js';
import type { CommandSpec } from './spec.js';

const USAGE = `isobudget datasets add-failures EVENTS.jsonl --experiment EXPERIMENT.yaml [--dry-run] [--json]
EVENTS.jsonl: canary events ({"passed": false, "n": 1, "budget": 200000, …}) plus "input" and, where known, "expected".
New cases go to train/val/test by a stable hash of the normalized input (datasets.refresh, default 0.5/0.25/0.25);
a failure at n=1 that passed at a larger n is tagged \`sampling\` and goes to train only; duplicates of any split are dropped.`;

export const datasetsCommand: CommandSpec = {
  summary: 'datasets add-failures EVENTS.jsonl --experiment EXPERIMENT.yaml: production failures into train/val/test, with their budget and n',
  async run(argv, io) {
    const [sub, ...rest] = argv;
    if (sub === '--help' || sub === '-h') {
      io.stdout.write(`${USAGE}\n`);
      return EXIT.ok;
    }
    if (sub !== 'add-failures') throw unknownSubcommand('datasets', sub, ['add-failures'], USAGE);
    const { values, positionals } = parseCommandArgs('datasets add-failures', rest, {
      experiment: { type: 'string', value: 'FILE', help: 'the experiment whose split files receive the cases (required)', example: 'experiment.yaml' },
      'dry-run': { type: 'boolean', help: 'say what would be added; write nothing' },
      json: JSON_OPTION,
    }, USAGE);
    const events = positionals[0];
    if (events === undefined || positionals.length > 1) throw new IsobudgetError('usage', 'datasets add-failures: pass one EVENTS.jsonl', { hint: USAGE });
    if (values.experiment === undefined) throw new IsobudgetError('usage', 'datasets add-failures: --experiment EXPERIMENT.yaml is required (it names the split files and datasets.refresh)', { hint: USAGE });
    const config = await loadConfig(resolve(io.cwd, values.experiment));
    const report = await addFailures(config, resolve(io.cwd, events), { dryRun: values['dry-run'] === true });
    if (values.json === true) io.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
    else {
      const added = report.added.train + report.added.val + report.added.test;
      io.stdout.write(`${values['dry-run'] ? 'would add' : 'added'} ${added} case(s) from ${report.events} event(s): train ${report.added.train} (${report.sampling} sampling), val ${report.added.val}, test ${report.added.test}\n`);
      io.stdout.write(`dropped: ${report.duplicates} duplicate(s) of existing cases, ${report.noExpected} without an expected answer, ${report.neverFailed} task(s) that never failed\n`);
      for (const file of report.files) io.stdout.write(`${file.path}: +${file.added}, sha256 ${file.sha256_before.slice(0, 12)} → ${file.sha256_after.slice(0, 12)}\n`);
      for (const changelog of report.changelogs) io.stdout.write(`changelog: ${changelog}\n`);
    }
    return EXIT.ok;
  },
};
