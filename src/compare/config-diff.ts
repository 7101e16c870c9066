/** Which settings differ between two runs' normalized configs, as key paths. Pure. */

export interface ConfigChange {
  path: string;
  a: string;
  b: string;
}

export function configChanges(a: unknown, b: unknown, limit = 40): ConfigChange[] {
  const left = flatten(a);
  const right = flatten(b);
  const changes: ConfigChange[] = [];
  for (const path of [...new Set([...left.keys(), ...right.keys()])].sort()) {
    const x = left.get(path);
    const y = right.get(path);
    if (x !== y) changes.push({ path, a: x ?? '(unset)', b: y ?? '(unset)' });
  }
  return changes.slice(0, limit);
}

function flatten(value: unknown, prefix = '', out = new Map<string, string>()): Map<string, string> {
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    for (const [key, child] of Object.entries(value as Record<string, unknown>)) flatten(child, prefix ? `${prefix}.${key}` : key, out);
  } else if (value !== undefined) {
    const text = JSON.stringify(value) ?? String(value);
    out.set(prefix, text.length > 80 ? `${text.slice(0, 77)}…` : text);
  }
  return out;
}
