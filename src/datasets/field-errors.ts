/**
 * One error for a field name no row has, pure (issue 24 item 8). A wrong `datasets.fields`
 * path, or a file whose prompt lives under another key, failed every row the same way: 20
 * identical errors and "and 40 more", and nothing said which keys the rows do have. Here an
 * error that every object row repeats becomes one, at the first row, naming the rows' real keys
 * with a did-you-mean.
 */
import { didYouMean } from '../config/did-you-mean.js';
import { IsobudgetError } from '../core/errors.js';

/** The per-row errors of a key a row lacks; collapsed when every row lacks it. */
const MISSING_KEY_CODES = new Set(['dataset_missing_field', 'dataset_missing_input', 'dataset_missing_expected', 'dataset_missing_id']);

/** What a missing role may be called in a file, for the did-you-mean (the config names it `datasets.fields.<role>`). */
const ROLE_OF_CODE: Record<string, string> = { dataset_missing_input: 'input', dataset_missing_expected: 'expected', dataset_missing_id: 'id' };

/**
 * `rows`: the number of object rows; `keys`: the first row's top-level keys. Errors repeated on
 * every row (same code, key and message) become one; others are kept as they are, in order.
 */
export function collapseMissingKeyErrors(errors: readonly IsobudgetError[], rows: number, keys: readonly string[]): IsobudgetError[] {
  if (rows < 2) return [...errors];
  const groups = new Map<string, IsobudgetError[]>();
  for (const error of errors) {
    if (!MISSING_KEY_CODES.has(error.code)) continue;
    const id = `${error.code}\u0000${error.location?.key ?? ''}\u0000${error.message}`;
    groups.set(id, [...(groups.get(id) ?? []), error]);
  }
  const everyRow = new Map<IsobudgetError, IsobudgetError>();
  const dropped = new Set<IsobudgetError>();
  for (const group of groups.values()) {
    const first = group[0];
    if (!first || group.length < rows) continue;
    everyRow.set(first, summarize(first, rows, keys));
    for (const error of group.slice(1)) dropped.add(error);
  }
  return errors.filter((error) => !dropped.has(error)).map((error) => everyRow.get(error) ?? error);
}

function summarize(first: IsobudgetError, rows: number, keys: readonly string[]): IsobudgetError {
  const wanted = first.location?.key ?? ROLE_OF_CODE[first.code] ?? '';
  const segment = wanted.split('.')[0] ?? wanted;
  const guess = didYouMean(segment, keys);
  const shown = keys.map((k) => `\`${k}\``).join(', ');
  const role = first.code === 'dataset_missing_field' ? /\(the (\w+),/.exec(first.message)?.[1] : ROLE_OF_CODE[first.code];
  const setting = role ? `datasets.fields.${role}` : 'datasets.fields';
  const fix = guess ? `did you mean \`${guess}\`? Set ${setting}: ${guess}` : `set ${setting} to the key that holds it`;
  return new IsobudgetError(first.code, `${first.message} — in all ${rows} rows; the rows have ${shown || 'no keys'}`, {
    ...(first.location ? { location: first.location } : {}),
    hint: `${fix} (dotted paths like a.b.0 work)`,
  });
}
