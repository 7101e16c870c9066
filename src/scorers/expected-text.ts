/**
 * Turns a case's `expected` into the text the string scorers (exact, normalized, contains)
 * compare against. Datasets store `42` and `"42"` interchangeably, so numbers and booleans
 * become their string form; objects need `field` to say which key holds the answer.
 */
import type { EvalCase } from '../core/case.js';
import { getPath } from './get-path.js';

export type ExpectedText = { ok: true; text: string } | { ok: false; error: string };

export function expectedText(evalCase: EvalCase, field: string | undefined): ExpectedText {
  let value: unknown = evalCase.expected;
  if (value === undefined || value === null) {
    return { ok: false, error: `case ${evalCase.id} has no expected value` };
  }
  if (field !== undefined) {
    if (typeof value !== 'object') {
      return { ok: false, error: `scorer field '${field}' is set but expected is a ${typeof value}, not an object` };
    }
    const lookup = getPath(value, field);
    if (!lookup.found) return { ok: false, error: `expected has no field '${field}'` };
    value = lookup.value;
  }
  switch (typeof value) {
    case 'string':
      return { ok: true, text: value };
    case 'number':
    case 'boolean':
    case 'bigint':
      return { ok: true, text: String(value) };
    default: {
      const where = field === undefined ? 'expected' : `expected.${field}`;
      const hint = field === undefined ? "set the scorer's `field`, or use the json scorer" : 'use the json scorer';
      return { ok: false, error: `${where} is ${value === null ? 'null' : Array.isArray(value) ? 'an array' : `a ${typeof value}`}; ${hint}` };
    }
  }
}
