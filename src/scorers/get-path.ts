/** Dot-path lookup (`answer.items.0.name`) into parsed JSON values. */

export type PathLookup = { found: true; value: unknown } | { found: false };

/** Looks up `path` in `root`; array elements are addressed by numeric segments. */
export function getPath(root: unknown, path: string): PathLookup {
  let current: unknown = root;
  for (const segment of path.split('.')) {
    if (Array.isArray(current)) {
      // Only canonical indices: '01' or '-1' are keys the user did not mean.
      if (!/^(0|[1-9]\d*)$/.test(segment)) return { found: false };
      const index = Number(segment);
      if (index >= current.length) return { found: false };
      current = current[index];
    } else if (typeof current === 'object' && current !== null && Object.hasOwn(current, segment)) {
      current = (current as Record<string, unknown>)[segment];
    } else {
      return { found: false };
    }
  }
  return { found: true, value: current };
}
