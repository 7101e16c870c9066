/**
 * `json`: extracts the first JSON object/array from the output (also inside ``` fences),
 * validates it against `schema` when given, then compares it with `expected`:
 * - `fields` given: each dot path must be deep-equal in output and expected; `value` is the
 *   fraction of matching fields (partial credit), `passed` needs all of them;
 * - no `fields`: the whole value must be deep-equal to expected;
 * - `fields: []`, or no expected on the case: schema validation alone decides.
 * A string `expected` holding JSON is parsed first. Schema violations are model failures
 * (passed: false), not scorer errors.
 */
import { z } from 'zod';
import { IsobudgetError } from '../core/errors.js';
import { deepEqual } from './deep-equal.js';
import { extractJson } from './extract-json.js';
import { getPath } from './get-path.js';
import { errorMessage, passFail, preview, scoreError } from './score-result.js';
import type { Score, ScoreInput, Scorer } from './spec.js';

export interface JsonScorerOptions {
  /** Dot paths compared between output and expected; undefined = the whole value. */
  fields?: string[];
  /** JSON Schema the extracted value must satisfy. */
  schema?: Record<string, unknown>;
}

type Validator = (value: unknown) => string[];

export function jsonScorer(options: JsonScorerOptions = {}): Scorer {
  const validate = options.schema === undefined ? undefined : compileSchema(options.schema);
  return {
    name: 'json',
    version: '1.0.0',
    async score({ output, evalCase }: ScoreInput): Promise<Score> {
      const extracted = extractJson(output);
      if (!extracted.found) return passFail(false, 'no JSON object or array found in the output');
      const actual = extracted.value;
      if (validate !== undefined) {
        const issues = validate(actual);
        if (issues.length > 0) return passFail(false, `schema violation: ${issues.slice(0, 5).join('; ')}`);
      }
      const expected = parseExpected(evalCase.expected);
      const fields = options.fields;
      if (expected === undefined || fields?.length === 0) {
        if (validate === undefined) return scoreError(`case ${evalCase.id} has no expected value and the scorer has no schema`);
        return passFail(true, 'output JSON satisfies the schema');
      }
      if (fields === undefined) {
        const passed = deepEqual(actual, expected);
        return passFail(passed, passed ? 'output JSON equals expected' : `output JSON ${preview(actual)} != expected ${preview(expected)}`);
      }
      const mismatches: string[] = [];
      for (const field of fields) {
        const want = getPath(expected, field);
        if (!want.found) return scoreError(`case ${evalCase.id}: expected has no field '${field}'`);
        const got = getPath(actual, field);
        if (!got.found) mismatches.push(`${field}: missing`);
        else if (!deepEqual(got.value, want.value)) mismatches.push(`${field}: ${preview(got.value, 40)} != ${preview(want.value, 40)}`);
      }
      const matched = fields.length - mismatches.length;
      const explanation = mismatches.length === 0 ? `all ${fields.length} fields match` : `${matched}/${fields.length} fields match; ${mismatches.join('; ')}`;
      return { passed: mismatches.length === 0, value: matched / fields.length, explanation };
    },
  };
}

/** Datasets may store the expected JSON as a string; compare structure, not text. */
function parseExpected(expected: unknown): unknown {
  if (expected === null || expected === undefined) return undefined;
  if (typeof expected !== 'string') return expected;
  try {
    return JSON.parse(expected) as unknown;
  } catch {
    return expected;
  }
}

/** Compiles once per scorer; an unsupported schema is a config error, raised before the run. */
function compileSchema(schema: Record<string, unknown>): Validator {
  let zodSchema: z.ZodType;
  try {
    zodSchema = z.fromJSONSchema(schema as Parameters<typeof z.fromJSONSchema>[0]);
  } catch (thrown) {
    throw new IsobudgetError('scorer_schema_invalid', `json scorer schema is not usable: ${errorMessage(thrown)}`, {
      location: { key: 'scorer.schema' },
    });
  }
  return (value) => {
    const result = zodSchema.safeParse(value);
    if (result.success) return [];
    return result.error.issues.map((issue) => `${issue.path.length === 0 ? '(root)' : issue.path.join('.')}: ${issue.message}`);
  };
}
