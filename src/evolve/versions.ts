/**
 * Skill versions as front matter writes them: a positive integer (`3`) or a semantic
 * version (`1.2.0`). Every proposal of a loop gets a version of its own, above the
 * incumbent's, so a lineage entry is named by its version. Pure.
 */

/** Numeric parts of a version, or undefined when it is not one (`1.2.0-rc.1` compares as 1.2.0). */
export function versionParts(version: string): number[] | undefined {
  const match = /^(\d+)(?:\.(\d+))?(?:\.(\d+))?(?:[-+].*)?$/.exec(version.trim());
  if (!match) return undefined;
  return [match[1], match[2], match[3]].filter((part): part is string => part !== undefined).map(Number);
}

/** −1, 0 or 1; versions that do not parse compare as equal (callers check parse first). */
export function compareVersions(a: string, b: string): number {
  const x = versionParts(a) ?? [];
  const y = versionParts(b) ?? [];
  for (let i = 0; i < Math.max(x.length, y.length); i += 1) {
    const difference = (x[i] ?? 0) - (y[i] ?? 0);
    if (difference !== 0) return Math.sign(difference);
  }
  return 0;
}

/**
 * The next `count` free versions above every version in `taken` (the incumbent's and every
 * earlier proposal's): integers stay integers (3 → 4, 5), `1.2.0` bumps its minor part.
 */
export function nextVersions(taken: readonly string[], count: number): string[] {
  const parsed = taken.map(versionParts).filter((parts): parts is number[] => parts !== undefined);
  const semantic = parsed.some((parts) => parts.length > 1);
  const versions: string[] = [];
  if (!semantic) {
    const top = Math.max(0, ...parsed.map((parts) => parts[0] ?? 0));
    for (let i = 1; i <= count; i += 1) versions.push(String(top + i));
    return versions;
  }
  const top = [...parsed].sort((a, b) => compareVersions(a.join('.'), b.join('.'))).at(-1) ?? [0, 0, 0];
  for (let i = 1; i <= count; i += 1) versions.push(`${top[0] ?? 0}.${(top[1] ?? 0) + i}.0`);
  return versions;
}
