import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, test } from 'vitest';

const SRC = resolve(import.meta.dirname, '../src');

/** Every .ts file under `dir`, tests included (they must respect the layers too). */
function sources(dir: string): string[] {
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

  test('src/estimate, the estimator runs and the gateway share, is below both: it imports neither', () => {
    expect([...crossings('estimate', 'runner'), ...crossings('estimate', 'gateway')]).toEqual([]);
  });

  test('the check sees imports: src/runner does import src/budget', () => {
    expect(crossings('runner', 'budget').length).toBeGreaterThan(0);
  });
});
