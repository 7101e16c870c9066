/**
 * `--store PATH` naming something that is not a memory store (issue 11, "Hostile and odd
 * input": exit 2, one located line, no stack trace): a file that is not SQLite, a directory,
 * a device, a FIFO. `memory`, `review` and `gate` all open the store the same way. A FIFO is
 * never opened (it could block), and nothing is written to what the path names.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import type { CliIO } from '../src/cli/io.js';
import { main } from '../src/cli/main.js';
import { runCli } from './support/cli.js';

async function cli(args: string[]): Promise<{ code: number; err: string }> {
  let err = '';
  const io: CliIO = { stdout: { write: () => undefined }, stderr: { write: (t) => void (err += t) }, env: {}, cwd: process.cwd(), signal: new AbortController().signal };
  return { code: await main(args, io), err };
}

const dir = mkdtempSync(join(tmpdir(), 'isobudget-store-paths-'));
const notes = join(dir, 'notes.sqlite');
writeFileSync(notes, 'my notes, not a database\n'.repeat(200));
const folder = join(dir, 'folder.sqlite');
mkdirSync(folder);
const fifo = join(dir, 'pipe.sqlite');
execFileSync('mkfifo', [fifo]);

test.each([
  ['a file that is not SQLite', notes, 'is not an isobudget memory store (SQLite)'],
  ['a directory', folder, 'is a directory, not a memory store file'],
  ['a FIFO', fifo, 'is a FIFO (named pipe), not a memory store file'],
  ['a device', '/dev/zero', 'is a device, not a memory store file'],
])('%s: memory and review exit 2 with one line naming it', async (_name, store, message) => {
  for (const argv of [['memory', 'search', '--store', store], ['review', '--store', store]]) {
    const result = await cli(argv);
    expect(result.code, result.err).toBe(2);
    expect(result.err.split('\n')[0]).toContain(store);
    expect(result.err.split('\n')[0]).toContain(message);
    expect(result.err).not.toMatch(/internal error|\n\s+at /);
  }
  if (store === notes) expect(readFileSync(notes, 'utf8')).toBe('my notes, not a database\n'.repeat(200));
});

test('memory import-learnings: a FIFO among the notes is skipped, not waited on; a non-UTF-8 note is an error at its line', async () => {
  const learnings = join(dir, 'project', '.learnings');
  mkdirSync(learnings, { recursive: true });
  writeFileSync(join(learnings, 'LEARNINGS.md'), '## [LRN-20260601-001] correction\n\nAlways state the date format.\n');
  execFileSync('mkfifo', [join(learnings, 'ERRORS.md')]);
  const store = join(dir, 'learnings.sqlite');
  const provenance = ['--run', 'bf-1', '--base-url', 'sim://local', '--model', 'sim-small', '--budget', '2000', '--n', '1', '--verdict', 'no_gain'];
  let timer: NodeJS.Timeout | undefined;
  const result = await runCli(['memory', 'import-learnings', join(dir, 'project'), '--store', store, ...provenance], {
    onSpawn: (child) => {
      timer = setTimeout(() => child.kill('SIGKILL'), 8_000);
    },
  });
  clearTimeout(timer);
  expect(result.signal, 'hung on the FIFO').toBeNull();
  expect(result.code, result.stderr).toBe(0);
  writeFileSync(join(learnings, 'FEATURE_REQUESTS.md'), Buffer.concat([Buffer.from('## [FEAT-1] caf'), Buffer.from([0xe9]), Buffer.from('\n')]));
  const latin1 = await cli(['memory', 'import-learnings', join(dir, 'project'), '--store', store, ...provenance]);
  expect(latin1.code).toBe(2);
  expect(latin1.err.split('\n')[0]).toContain(`${join(learnings, 'FEATURE_REQUESTS.md')}:1:16: `);
});
