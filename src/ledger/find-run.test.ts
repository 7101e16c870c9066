import { mkdirSync, mkdtempSync, readdirSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { IsobudgetError } from '../core/errors.js';
import { findRunDir } from './find-run.js';
import { removeRunDir } from './remove-run.js';
import { listRunDirs } from './run-listing.js';

/** A runs folder: two sound runs, one broken (empty), one folder that is not a run. */
function runsFolder(): { cwd: string; runs: string } {
  const cwd = mkdtempSync(join(tmpdir(), 'isobudget-find-run-'));
  const runs = join(cwd, 'runs');
  const run = (id: string, createdAt: string): void => {
    mkdirSync(join(runs, id), { recursive: true });
    writeFileSync(join(runs, id, 'manifest.json'), JSON.stringify({ run_id: id, created_at: createdAt, status: 'complete' }));
    writeFileSync(join(runs, id, 'results.jsonl'), '');
  };
  run('bf-20261201-101500-aaaa', '2026-12-01T10:15:00.000Z');
  run('bf-20261201-135117-4b36', '2026-12-01T13:51:17.000Z');
  mkdirSync(join(runs, 'bf-20261201-140000-dead'));
  mkdirSync(join(runs, 'notes'));
  writeFileSync(join(runs, 'notes', 'todo.txt'), 'keep me');
  return { cwd, runs };
}

const usage = (fn: () => unknown): IsobudgetError => {
  try {
    fn();
  } catch (error) {
    if (error instanceof IsobudgetError) return error;
    throw error;
  }
  throw new Error('expected an IsobudgetError');
};

describe('findRunDir: one resolver for every command', () => {
  test('a directory is taken as given; latest, ids and unique prefixes are looked up in ./runs', () => {
    const { cwd, runs } = runsFolder();
    expect(findRunDir('runs/bf-20261201-101500-aaaa', { cwd })).toBe(join(runs, 'bf-20261201-101500-aaaa'));
    expect(findRunDir(join(runs, 'bf-20261201-101500-aaaa'), { cwd: '/' })).toBe(join(runs, 'bf-20261201-101500-aaaa'));
    // latest: the newest manifest, never the broken run (whose name sorts last).
    expect(findRunDir('latest', { cwd })).toBe(join(runs, 'bf-20261201-135117-4b36'));
    expect(findRunDir('bf-20261201-135117-4b36', { cwd })).toBe(join(runs, 'bf-20261201-135117-4b36'));
    expect(findRunDir('bf-20261201-13', { cwd })).toBe(join(runs, 'bf-20261201-135117-4b36'));
    // DIR/NAME looks NAME up in DIR; --out-style runsDir too.
    expect(findRunDir('runs/latest', { cwd: cwd })).toBe(join(runs, 'bf-20261201-135117-4b36'));
    expect(findRunDir('bf-20261201-10', { cwd: '/', runsDir: runs })).toBe(join(runs, 'bf-20261201-101500-aaaa'));
    // Inside the runs folder itself (no ./runs there): the current directory is the folder.
    expect(findRunDir('latest', { cwd: runs })).toBe(join(runs, 'bf-20261201-135117-4b36'));
  });

  test('an ambiguous prefix lists the matches; no match and no runs folder say what to do', () => {
    const { cwd } = runsFolder();
    const ambiguous = usage(() => findRunDir('bf-2026', { cwd }));
    expect(ambiguous.code).toBe('ambiguous_run');
    expect(ambiguous.message).toContain('matches 3 runs');
    expect(ambiguous.message).toContain('bf-20261201-101500-aaaa, bf-20261201-135117-4b36, bf-20261201-140000-dead');
    expect(usage(() => findRunDir('bf-1999', { cwd })).message).toContain("no run in");
    // A folder that is not a run is not a match.
    expect(usage(() => findRunDir('notes-x', { cwd })).code).toBe('not_found');
    expect(usage(() => findRunDir('latest', { cwd: mkdtempSync(join(tmpdir(), 'isobudget-empty-')) })).message).toContain('no `latest`');
    expect(usage(() => findRunDir('nowhere/latest', { cwd })).hint).toContain('no runs folder');
  });
});

describe('runs folder: listing and removal', () => {
  test('a broken run is listed as such; a folder of other files is not a run', () => {
    const { runs } = runsFolder();
    const entries = listRunDirs(runs);
    expect(entries.map((e) => e.id)).toEqual(['bf-20261201-101500-aaaa', 'bf-20261201-135117-4b36', 'bf-20261201-140000-dead']);
    expect(entries[2]?.broken).toContain('before its manifest');
    expect(entries[0]?.broken).toBeUndefined();
  });

  test('removes a run directory file by file; refuses anything else and leaves it whole', () => {
    const { runs } = runsFolder();
    const removed = removeRunDir(join(runs, 'bf-20261201-140000-dead'));
    expect(removed).toMatchObject({ id: 'bf-20261201-140000-dead', files: [] });
    expect(existsSync(join(runs, 'bf-20261201-140000-dead'))).toBe(false);
    expect(removeRunDir(join(runs, 'bf-20261201-101500-aaaa')).files).toEqual(['manifest.json', 'results.jsonl']);
    expect(usage(() => removeRunDir(join(runs, 'notes'))).code).toBe('not_a_run');
    expect(usage(() => removeRunDir(runs)).code).toBe('not_a_run');
    writeFileSync(join(runs, 'bf-20261201-135117-4b36', 'my-notes.md'), 'mine');
    expect(usage(() => removeRunDir(join(runs, 'bf-20261201-135117-4b36'))).message).toContain('my-notes.md');
    expect(readdirSync(join(runs, 'bf-20261201-135117-4b36')).sort()).toEqual(['manifest.json', 'my-notes.md', 'results.jsonl']);
    expect(readdirSync(join(runs, 'notes'))).toEqual(['todo.txt']);
  });
});
