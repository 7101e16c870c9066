/** `isobudget schema` — the JSON Schema of experiment.yaml, from the same zod schema. */
import { experimentJsonSchema } from '../../config/index.js';
import { EXIT } from '../exit-codes.js';
import type { CommandSpec } from './spec.js';

export const schemaCommand: CommandSpec = {
  summary: 'print the JSON Schema of experiment.yaml (for editor completion)',
  async run(_argv, io) {
    io.stdout.write(`${JSON.stringify(experimentJsonSchema(), null, 2)}\n`);
    return EXIT.ok;
  },
};
