/**
 * Human-sized ids: `mem-date-parser-003` (the seed's shape), `gate-0007`, `rev-0012`.
 * Allocated from a snapshot; a clash with a concurrent writer is a StoreConflictError and
 * the writer retries with a fresh snapshot.
 */

/** `skill-date-parser-v3` → `date-parser`: the family a candidate belongs to. */
export function slugFor(subject: string): string {
  const slug = subject
    .toLowerCase()
    .replace(/^skill[-_]/, '')
    .replace(/[-_.]v\d+$/, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40)
    .replace(/-+$/, '');
  return slug || 'memory';
}

/** The next free `${prefix}NNN` (at least `width` digits) after the highest one in `existing`. */
export function nextId(prefix: string, existing: Iterable<string>, width: number): string {
  let highest = 0;
  for (const id of existing) {
    if (!id.startsWith(prefix)) continue;
    const rest = id.slice(prefix.length);
    if (/^\d+$/.test(rest)) highest = Math.max(highest, Number(rest));
  }
  return `${prefix}${String(highest + 1).padStart(width, '0')}`;
}

export function nextMemoryId(subject: string, existing: Iterable<string>): string {
  return nextId(`mem-${slugFor(subject)}-`, existing, 3);
}
