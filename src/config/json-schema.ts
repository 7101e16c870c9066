/** JSON Schema of the experiment YAML, generated from the zod schema (for `isobudget schema`). */
import { z } from 'zod';
import { experimentSchema } from './schema.js';

/** The schema of what users write (input side): every optional key, defaults as annotations. */
export function experimentJsonSchema(): Record<string, unknown> {
  return z.toJSONSchema(experimentSchema, { io: 'input', target: 'draft-2020-12' }) as Record<string, unknown>;
}
