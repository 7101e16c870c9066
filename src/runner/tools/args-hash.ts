/**
 * Arguments hash of a tool call: sha256 of canonical JSON (object keys sorted at every level),
 * first 16 hex chars. `{"b":1,"a":2}` and `{"a":2,"b":1}` are the same call, so duplicates
 * and retries are found whatever key order the model wrote.
 */
import { createHash } from 'node:crypto';

export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/**
 * Hash of the arguments text as the model sent it. Text that is not JSON is hashed as is
 * (marked, so it never collides with a JSON value): identical garbage is still a duplicate.
 */
export function argsHash(argumentsText: string): string {
  let canonical: string;
  try {
    canonical = canonicalJson(JSON.parse(argumentsText === '' ? '{}' : argumentsText));
  } catch {
    canonical = `raw:${argumentsText}`;
  }
  return createHash('sha256').update(canonical).digest('hex').slice(0, 16);
}
