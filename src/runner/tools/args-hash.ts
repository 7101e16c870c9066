/**
 * Arguments hash of a tool call: sha256 of canonical JSON (object keys sorted at every level),
 * first 16 hex chars. `{"b":1,"a":2}` and `{"a":2,"b":1}` are the same call, so duplicates
 * and retries are found whatever key order the model wrote.
 */
import { sha256, stableStringify } from '../../core/hash.js';

/** Canonical JSON of the arguments: the config hash's stable stringify (sorted keys, no undefined). */
export const canonicalJson = stableStringify;

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
  return sha256(canonical).slice(0, 16);
}
