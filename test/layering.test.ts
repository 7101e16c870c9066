import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, test } from 'vitest';

const SRC = resolve(import.meta.dirname, '../src');

/** Every .ts file under `dir`, tests included (they must respect the layers too). */
function sources(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? sources(path) : entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** The src-relative folder each relative import of `file` lands in. */
function importedFolders(file: string): Array<{ line: number; target: string }> {
  const found: Array<{ line: number; target: string }> = [];
  readFileSync(file, 'utf8').split('\n').forEach((text, i) => {
    for (const match of text.matchAll(/(?:from\s+|import\s*\(\s*)['"](\.[^'"]+)['"]/g)) {
      found.push({ line: i + 1, target: relative(SRC, resolve(file, '..', match[1] as string)) });
    }
  });
  return found;
}

function crossings(from: string, to: string): string[] {
  return sources(join(SRC, from)).flatMap((file) =>
    importedFolders(file)
      .filter(({ target }) => target === to || target.startsWith(`${to}/`))
      .map(({ line, target }) => `${relative(SRC, file)}:${line} imports ${target}`),
  );
}

describe('layers', () => {
  test('src/gateway imports nothing from src/runner (shared budget arithmetic lives in src/budget)', () => {
    expect(crossings('gateway', 'runner')).toEqual([]);
  });

  test('src/budget is below both: it imports neither src/runner nor src/gateway', () => {
    expect([...crossings('budget', 'runner'), ...crossings('budget', 'gateway')]).toEqual([]);
  });

  test('exporters and importers are outer rooms: only src/cli, the viewer (its CSV download) and they themselves import src/export or src/import', () => {
    const inner = readdirSync(SRC, { withFileTypes: true }).filter((e) => e.isDirectory() && !['cli', 'view', 'export', 'import'].includes(e.name)).map((e) => e.name);
    expect(inner.flatMap((folder) => [...crossings(folder, 'export'), ...crossings(folder, 'import')])).toEqual([]);
    expect([...crossings('export', 'cli'), ...crossings('import', 'cli')]).toEqual([]);
    // …and the check sees those imports where they are allowed.
    expect(crossings('cli', 'export').length).toBeGreaterThan(0);
  });

  test('src/ledger is below src/runner: the manifest\'s types live in src/ledger (or lower)', () => {
    expect(crossings('ledger', 'runner')).toEqual([]);
  });

  test('src/estimate, the estimator runs and the gateway share, is below both: it imports neither', () => {
    expect([...crossings('estimate', 'runner'), ...crossings('estimate', 'gateway')]).toEqual([]);
  });

  test('the check sees imports: src/runner does import src/budget', () => {
    expect(crossings('runner', 'budget').length).toBeGreaterThan(0);
  });

  test('no two files import each other (a shared type lives in a third file both import)', () => {
    const files = sources(SRC).filter((file) => !file.endsWith('.test.ts'));
    const imports = new Map(files.map((file) => [relative(SRC, file), new Set(importedFolders(file).map(({ target }) => target.replace(/\.js$/, '.ts')))]));
    const circles = [...imports].flatMap(([file, targets]) => [...targets].filter((target) => file < target && imports.get(target)?.has(file)).map((target) => `${file} <-> ${target}`));
    expect(circles).toEqual([]);
  });

  test('no import circle of any length (type imports included): every file can be read after what it imports', () => {
    const files = sources(SRC).filter((file) => !file.endsWith('.test.ts'));
    const imports = new Map(files.map((file) => [relative(SRC, file), [...new Set(importedFolders(file).map(({ target }) => target.replace(/\.js$/, '.ts')))]]));
    expect(importCircles(imports)).toEqual([]);
    // …and the search finds a circle where there is one.
    expect(importCircles(new Map([['a.ts', ['b.ts']], ['b.ts', ['c.ts']], ['c.ts', ['a.ts']], ['d.ts', ['a.ts']]]))).toEqual(['a.ts -> b.ts -> c.ts']);
  });

  test('the viewer is an outer room: nothing but src/cli imports src/view', () => {
    const folders = readdirSync(SRC, { withFileTypes: true }).filter((e) => e.isDirectory() && e.name !== 'view' && e.name !== 'cli').map((e) => e.name);
    expect(folders.flatMap((folder) => crossings(folder, 'view'))).toEqual([]);
  });
});

/** The files of each import circle (Tarjan's strongly connected components, iterative), sorted, one string per circle. */
function importCircles(imports: ReadonlyMap<string, readonly string[]>): string[] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const circles: string[] = [];
  for (const root of imports.keys()) {
    if (index.has(root)) continue;
    const work: Array<{ file: string; next: number }> = [{ file: root, next: 0 }];
    index.set(root, index.size);
    low.set(root, index.get(root) as number);
    stack.push(root);
    onStack.add(root);
    while (work.length > 0) {
      const frame = work[work.length - 1] as { file: string; next: number };
      const targets = (imports.get(frame.file) ?? []).filter((target) => imports.has(target));
      if (frame.next < targets.length) {
        const target = targets[frame.next] as string;
        frame.next += 1;
        if (!index.has(target)) {
          index.set(target, index.size);
          low.set(target, index.get(target) as number);
          stack.push(target);
          onStack.add(target);
          work.push({ file: target, next: 0 });
        } else if (onStack.has(target)) low.set(frame.file, Math.min(low.get(frame.file) as number, index.get(target) as number));
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent !== undefined) low.set(parent.file, Math.min(low.get(parent.file) as number, low.get(frame.file) as number));
      if (low.get(frame.file) !== index.get(frame.file)) continue;
      const members: string[] = [];
      for (let member = stack.pop(); member !== undefined; member = stack.pop()) {
        onStack.delete(member);
        members.push(member);
        if (member === frame.file) break;
      }
      if (members.length > 1) circles.push(members.sort().join(' -> '));
    }
  }
  return circles.sort();
}
