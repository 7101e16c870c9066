/** A location inside a config or row: object keys and array indexes. */
export type KeyPath = ReadonlyArray<string | number>;

/** `['budget', 'best_of_n', 2]` → `budget.best_of_n[2]`; odd keys are quoted: `headers["a.b"]`. */
export function formatKeyPath(path: KeyPath): string {
  let out = '';
  for (const segment of path) {
    if (typeof segment === 'number') out += `[${segment}]`;
    else if (/^[A-Za-z_][\w-]*$/.test(segment)) out += out === '' ? segment : `.${segment}`;
    else out += `[${JSON.stringify(segment)}]`;
  }
  return out;
}

/** The value at `path` inside plain parsed data, or undefined when any step is missing. */
export function valueAt(root: unknown, path: KeyPath): unknown {
  let current: unknown = root;
  for (const segment of path) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<string | number, unknown>)[segment];
  }
  return current;
}

/** Short, safe rendering of a user value for messages: `string "abc"`, `number -5`, `a list`. */
export function describeValue(value: unknown): string {
  if (value === null) return 'null (an empty value)';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'a mapping';
  if (typeof value === 'string') {
    const shown = value.length > 40 ? `${value.slice(0, 37)}...` : value;
    return `string ${JSON.stringify(shown)}`;
  }
  return `${typeof value} ${String(value)}`;
}
