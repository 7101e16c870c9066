/**
 * The README said `memory ingest` turns any other verdict into "evidence" while the CLI
 * printed `learning` (issue 15, item 8). The ingest rules decide what is true: a verdict on a
 * candidate with records becomes evidence on them; on one with none, a new `learning`. The
 * README and the usage text now say both, and this test holds them to what the CLI does.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import type { CliIO } from '../src/cli/io.js';
import { MEMORY_USAGE } from '../src/cli/commands/memory-common.js';
import { createMemoryCommand } from '../src/cli/commands/memory.js';
import { fakeRun, T0, tempStore } from '../src/memory/test-support/fixtures.js';

test('memory ingest of a no_gain run: a learning when the candidate has no record, evidence when it has one — and the README says so', async () => {
  const { store, dir, file } = tempStore();
  store.close();
  const command = createMemoryCommand({ now: () => T0 });
  const ingest = async (runId: string, verdict: 'no_gain' | 'real_evolution'): Promise<string> => {
    const run = fakeRun({ run_id: runId, verdict });
    const runDir = join(dir, 'runs', runId);
    mkdirSync(runDir, { recursive: true });
    writeFileSync(join(runDir, 'manifest.json'), JSON.stringify(run.manifest));
    writeFileSync(join(runDir, 'verdict.json'), JSON.stringify(run.verdict));
    let out = '';
    const io: CliIO = { stdout: { write: (t) => void (out += t) }, stderr: { write: () => undefined }, env: {}, cwd: dir, signal: new AbortController().signal };
    expect(await command.run(['ingest', runDir, '--store', file], io)).toBe(0);
    return out;
  };
  expect(await ingest('bf-1', 'no_gain')).toMatch(/\(learning\) created/);
  // The candidate now has a record: the next verdict is evidence on it, no new record.
  const second = await ingest('bf-2', 'no_gain');
  expect(second).not.toContain('created');
  expect(second).toMatch(/\(learning\): .*bf-2/);

  const readme = readFileSync(join(import.meta.dirname, '..', 'README.md'), 'utf8');
  const comment = readme.slice(readme.indexOf('memory ingest runs/<id>'), readme.indexOf('npx isobudget gate examples/'));
  expect(comment).toContain('evidence on the candidate\'s records');
  expect(comment).toContain('`learning`');
  expect(comment).not.toMatch(/else evidence/);
  // Nowhere else either: the evolve loop's "Remember" step ingests the same way.
  expect(readme).not.toMatch(/else evidence\)/);
  expect(MEMORY_USAGE.split('\n')[0]).toMatch(/evidence on the candidate's records, or a new learning/);
});
