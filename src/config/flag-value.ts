/**
 * A CLI flag that sets a config key (`--concurrency` → `concurrency`) is validated by that
 * key's schema, so `--concurrency 0` is refused exactly as `concurrency: 0` would be, with the
 * same plain-language range and the key's description as the way to fix it.
 */
import { IsobudgetError } from '../core/errors.js';
import { problemsFromIssues } from './issues.js';
import { formatKeyPath, type KeyPath } from './key-path.js';
import { experimentSchema } from './schema.js';
import { schemaAt } from './schema-walk.js';

/** The flag's value as a number, checked against the config key at `path`; undefined when not given. */
export function configNumberFlag(flag: string, value: string | undefined, path: KeyPath): number | undefined {
  if (value === undefined) return undefined;
  const schema = schemaAt(experimentSchema, path);
  const key = formatKeyPath(path);
  if (!schema) throw new Error(`no config key ${key}`);
  const parsed = value.trim() === '' ? Number.NaN : Number(value);
  if (!Number.isFinite(parsed)) throw new IsobudgetError('usage', `--${flag} must be a number, got '${value}' (it sets the config key \`${key}\`)`);
  const checked = schema.safeParse(parsed);
  if (checked.success) return parsed;
  const problem = problemsFromIssues(checked.error.issues, schema, parsed)[0];
  // One line: what is wrong, then what the key takes.
  const rule = (problem?.message ?? 'is not allowed').replace(/^expected /, 'must be ').replace(/(, got .*| \(got .*\))$/, '');
  const about = schema.description ?? problem?.hint;
  throw new IsobudgetError('usage', `--${flag} ${rule}, got ${value} (as for the config key \`${key}\`${about ? `: ${about.replace(/\.$/, '')}` : ''})`);
}
