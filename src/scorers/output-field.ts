/**
 * `scorer.output_field`: agents such as `claude -p --output-format json` (one object, the
 * answer in `result`) and `codex exec --json` (JSON Lines events, the answer in the
 * `item.completed` event whose item is an `agent_message`) print the answer inside JSON.
 * This wrapper reads the value at the configured path and hands THAT to the scorer, so the
 * scorer compares the answer rather than the envelope.
 *
 * Rules (documented in the README):
 * - the output is parsed as one JSON value; if it is not one, as JSON Lines (every non-empty
 *   line a JSON value), where the LAST line that has the path wins — the final answer of an
 *   event stream comes after the drafts and reasoning;
 * - a string value is scored as is; numbers and booleans as their text; objects and arrays as
 *   their JSON (for the json scorer);
 * - non-JSON output, a missing path or a null value is a scorer error quoting the output's
 *   first 200 characters, control characters escaped — never a silent failure.
 */
import { IsobudgetError } from '../core/errors.js';
import { parseOutputField, type FieldStep } from '../core/output-field.js';
import { quoteText } from '../core/quote-text.js';
import { scoreError } from './score-result.js';
import type { Score, ScoreInput, Scorer } from './spec.js';

/** Characters of the output quoted in a scorer error. */
const QUOTED_CHARS = 200;

export type OutputFieldValue = { ok: true; text: string } | { ok: false; error: string };

export function withOutputField(scorer: Scorer, path: string): Scorer {
  const steps = parseOutputField(path);
  if (steps === undefined) throw new IsobudgetError('config_invalid', `scorer.output_field \`${path}\` is not a dotted path`, { hint: 'write e.g. `result` or `item[type=agent_message].text`' });
  return {
    name: scorer.name,
    version: `${scorer.version}+output_field`,
    async score(input: ScoreInput): Promise<Score> {
      const value = readOutputField(input.output, steps, path);
      if (!value.ok) return scoreError(value.error);
      return scorer.score({ ...input, output: value.text });
    },
  };
}

/** The text at `path` in `output` (see the rules above). */
export function readOutputField(output: string, steps: readonly FieldStep[], path: string): OutputFieldValue {
  const documents = parseDocuments(output);
  if (documents === undefined) return { ok: false, error: `the output is not JSON, so scorer.output_field \`${path}\` cannot be read; output: ${quoteOutput(output)}` };
  for (let i = documents.length - 1; i >= 0; i -= 1) {
    const found = lookup(documents[i], steps);
    if (!found.found) continue;
    const value = found.value;
    if (value === null) return { ok: false, error: `scorer.output_field \`${path}\` is null in the output; output: ${quoteOutput(output)}` };
    if (typeof value === 'string') return { ok: true, text: value };
    if (typeof value === 'number' || typeof value === 'boolean') return { ok: true, text: String(value) };
    return { ok: true, text: JSON.stringify(value) };
  }
  const shape = documents.length === 1 ? 'the JSON output' : `the JSON Lines output (${documents.length} lines)`;
  return { ok: false, error: `${shape} has no \`${path}\` (scorer.output_field); output: ${quoteOutput(output)}` };
}

/** One JSON value, or every non-empty line of JSON Lines; undefined when neither. */
function parseDocuments(output: string): unknown[] | undefined {
  const text = output.trim();
  if (text === '') return undefined;
  try {
    return [JSON.parse(text)];
  } catch {
    // Not one value: perhaps JSON Lines.
  }
  const documents: unknown[] = [];
  for (const line of text.split(/\r?\n/)) {
    if (line.trim() === '') continue;
    try {
      documents.push(JSON.parse(line));
    } catch {
      return undefined;
    }
  }
  return documents.length > 1 ? documents : undefined;
}

type Found = { found: true; value: unknown } | { found: false };

function lookup(root: unknown, steps: readonly FieldStep[]): Found {
  let current: unknown = root;
  for (const step of steps) {
    const next = child(current, step.key);
    if (!next.found) return next;
    current = next.value;
    if (step.where !== undefined) {
      const test = child(current, step.where.key);
      if (!test.found || !isScalar(test.value) || String(test.value) !== step.where.equals) return { found: false };
    }
  }
  return { found: true, value: current };
}

function child(value: unknown, key: string): Found {
  if (Array.isArray(value)) {
    // Only canonical indices: '01' or '-1' are keys the user did not mean.
    if (!/^(0|[1-9]\d*)$/.test(key)) return { found: false };
    const index = Number(key);
    return index < value.length ? { found: true, value: value[index] } : { found: false };
  }
  if (typeof value === 'object' && value !== null && Object.hasOwn(value, key)) return { found: true, value: (value as Record<string, unknown>)[key] };
  return { found: false };
}

function isScalar(value: unknown): value is string | number | boolean {
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';
}

/** The output's first 200 characters, quoted and escaped (core/quote-text.ts). */
export function quoteOutput(output: string): string {
  return quoteText(output, QUOTED_CHARS);
}
