import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { removeRunDir } from './remove-run.js';
import { runPaths } from './run-dir.js';

/** A run directory holding every file runPaths names (what the runner, gateway and index write), plus the report. */
function fullRunDir(): string {
  const dir = join(mkdtempSync(join(tmpdir(), 'isobudget-rm-')), 'bf-x');
  mkdirSync(dir);
  const { dir: _dir, ...files } = runPaths(dir);
  for (const file of Object.values(files)) writeFileSync(file, file.endsWith('.json') ? '{"run_id":"bf-x","created_at":"2026-01-01T00:00:00Z","status":"complete"}' : '');
  writeFileSync(join(dir, 'report.html'), '<html></html>');
  return dir;
}

describe('runs rm', () => {
  test('removes every file a run writes (call-intents.jsonl and .space-reserve too)', () => {
    const dir = fullRunDir();
    const removed = removeRunDir(dir);
    expect(removed.files).toEqual(expect.arrayContaining(['call-intents.jsonl', '.space-reserve', 'manifest.json', 'calls.jsonl', 'report.html']));
    expect(existsSync(dir)).toBe(false);
  });

  test('refuses a run directory holding a foreign file, and removes nothing', () => {
    const dir = fullRunDir();
    writeFileSync(join(dir, 'notes.txt'), 'mine');
    expect(() => removeRunDir(dir)).toThrow(/notes\.txt/);
    expect(existsSync(join(dir, 'call-intents.jsonl'))).toBe(true);
    expect(basename(dir)).toBe('bf-x');
  });
});
