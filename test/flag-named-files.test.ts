/**
 * Files named by a flag get the same care as datasets (issue 11, items 10–12): `attribute
 * --feedback`, `datasets add-failures EVENTS`, `evolve --failures`, `--pricing` and `clients
 * lint` read only a regular UTF-8 file (a FIFO used to hang them, deaf to SIGTERM), and no
 * error quotes a byte of a file that is not what it should be — not even the one character
 * V8 names in "Unexpected token 'r'" (the first letter of every line of ../../etc/passwd).
 */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { runCli } from './support/cli.js';
import { writeExperiment } from './support/experiment.js';

const experiment = writeExperiment({ provider: '{ preset: sim }' });
const dir = mkdtempSync(join(tmpdir(), 'isobudget-flag-files-'));
// add-failures and evolve need train/val/test and a proposer: the evolve example has them.
const evolveExample = join(dir, 'evolve-date-parser');
cpSync(join(import.meta.dirname, '..', 'examples', 'evolve-date-parser'), evolveExample, { recursive: true });
const evolveConfig = join(evolveExample, 'experiment.yaml');

/** The commands, each with FILE where the hostile file goes. */
const COMMANDS: Array<[string, (file: string) => string[]]> = [
  ['attribute --feedback', (file) => ['attribute', 'no-such-run', '--feedback', file]],
  ['datasets add-failures', (file) => ['datasets', 'add-failures', file, '--experiment', evolveConfig]],
  ['evolve --failures', (file) => ['evolve', evolveConfig, '--out', join(dir, 'loops'), '--store', join(dir, 'memory.sqlite'), '--failures', file]],
  ['run --pricing', (file) => ['run', experiment.configPath, '--out', join(dir, 'runs'), '--pricing', file]],
  ['clients lint', (file) => ['clients', 'lint', file]],
  ['analyze --ledger', (file) => ['analyze', '--ledger', file]],
  ['canary analyze', (file) => ['canary', 'analyze', file]],
];

describe('a file of secrets named where JSONL belongs is never quoted', () => {
  // Every line starts with a different letter: any quoted token or snippet shows up.
  const secrets = join(dir, 'secrets.txt');
  writeFileSync(secrets, 'Qsk-live-7f3a9:x\nZtoken=hunter2\nJohn:$6$salt$hash\n');
  test.each(COMMANDS)('%s', async (_name, argv) => {
    const result = await runCli(argv(secrets));
    // `clients lint` reports its findings on stdout.
    const printed = result.stderr + result.stdout;
    expect(result.code, printed).toBe(2);
    expect(printed).toContain(secrets);
    expect(printed).not.toMatch(/'[QZJ]'|sk-live|hunter2|\$6\$/);
    expect(printed).not.toMatch(/internal error|\n\s+at /);
  });
});

describe('a FIFO is refused at once, not waited on', () => {
  const fifo = join(dir, 'events.jsonl');
  execFileSync('mkfifo', [fifo]);
  test.each(COMMANDS)('%s', async (_name, argv) => {
    let timer: NodeJS.Timeout | undefined;
    const result = await runCli(argv(fifo), {
      onSpawn: (child) => {
        timer = setTimeout(() => child.kill('SIGKILL'), 8_000);
      },
    });
    clearTimeout(timer);
    expect(result.signal, 'hung on the FIFO').toBeNull();
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toContain('a FIFO (named pipe), not a regular file');
  });
});

describe('non-UTF-8 bytes are reported by line and column, not replaced', () => {
  const latin1 = join(dir, 'latin1.jsonl');
  writeFileSync(latin1, Buffer.concat([Buffer.from('{"category":"caf'), Buffer.from([0xe9]), Buffer.from('","passed":false}\n')]));
  test.each(COMMANDS)('%s', async (_name, argv) => {
    const result = await runCli(argv(latin1));
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toContain(`${latin1}:1:17: `);
    expect(result.stderr).toContain('not valid UTF-8: byte 0xe9 at line 1, column 17');
    expect(result.stderr).not.toContain('\uFFFD');
  });
});
