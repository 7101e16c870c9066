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
