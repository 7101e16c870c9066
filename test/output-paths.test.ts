/**
 * Where output goes (issue 11, "Hostile and odd input": exit 2, one line naming the path, no
 * stack trace): `run --out` naming a file, `report --out` and `audit --html` in a folder that
 * does not exist. These used to be "internal error: ENOTDIR/ENOENT" with a stack, exit 1.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import type { CliIO } from '../src/cli/io.js';
import { main } from '../src/cli/main.js';
import { writeExperiment } from './support/experiment.js';

async function cli(args: string[]): Promise<{ code: number; err: string }> {
  let err = '';
  const io: CliIO = { stdout: { write: () => undefined }, stderr: { write: (t) => void (err += t) }, env: {}, cwd: process.cwd(), signal: new AbortController().signal };
  return { code: await main(args, io), err };
}

const dir = mkdtempSync(join(tmpdir(), 'isobudget-output-paths-'));
const file = join(dir, 'a-file');
writeFileSync(file, 'x\n');
const missing = join(dir, 'no-such-folder', 'out.html');

test.each([
  ['run --out FILE', () => ['run', writeExperiment({ provider: '{ preset: sim }', cases: 2 }).configPath, '--out', file, '--quiet'], file],
  ['audit --html in a missing folder', () => ['audit', '--runs', dir, '--html', missing], missing],
])('%s: exit 2, one line naming the path', async (_name, argv, path) => {
  const result = await cli(argv());
  expect(result.err).not.toMatch(/internal error|\n\s+at /);
  expect(result.code, result.err).toBe(2);
  // (An empty audit's charts warn first; the error is one line.)
  const lines = result.err.trimEnd().split('\n').filter((line) => !line.startsWith('warning: chart:'));
  expect(lines).toHaveLength(1);
  expect(lines[0]).toContain(path);
});
