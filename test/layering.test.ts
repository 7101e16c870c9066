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

  test('the viewer is an outer room: nothing but src/cli imports src/view', () => {
    const folders = readdirSync(SRC, { withFileTypes: true }).filter((e) => e.isDirectory() && e.name !== 'view' && e.name !== 'cli').map((e) => e.name);
    expect(folders.flatMap((folder) => crossings(folder, 'view'))).toEqual([]);
  });
});
