/** `isobudget schema` — the JSON Schema of experiment.yaml, from the same zod schema. */
import { experimentJsonSchema } from '../../config/index.js';
import { IsobudgetError } from '../../core/errors.js';
import { parseCommandArgs } from '../args.js';
import { EXIT } from '../exit-codes.js';
import type { CommandSpec } from './spec.js';

const USAGE = `isobudget schema [> experiment.schema.json]
  prints the JSON Schema of experiment.yaml: every key, its description and default.
  Point editors at it with a first line \`# yaml-language-server: $schema=./experiment.schema.json\`
  (isobudget init writes both).`;

export const schemaCommand: CommandSpec = {
  summary: 'print the JSON Schema of experiment.yaml (for editor completion)',
  async run(argv, io) {
    const { positionals } = parseCommandArgs('schema', argv, {}, USAGE);
    if (positionals.length > 0) throw new IsobudgetError('usage', `schema: unexpected argument '${positionals[0]}'`, { hint: USAGE });
    io.stdout.write(`${JSON.stringify(experimentJsonSchema(), null, 2)}\n`);
    return EXIT.ok;
  },
};
