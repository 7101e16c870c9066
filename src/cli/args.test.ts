import { expect, test } from 'vitest';
import { main } from './main.js';
import type { CliIO } from './io.js';

function capture(): { io: CliIO; out: () => string; err: () => string } {
  let out = '';
  let err = '';
  const io: CliIO = { stdout: { write: (t) => void (out += t) }, stderr: { write: (t) => void (err += t) }, env: {}, cwd: process.cwd(), signal: new AbortController().signal };
  return { io, out: () => out, err: () => err };
}

test.each(['run', 'analyze', 'memory', 'ledger', 'canary', 'review'])('`%s --help` prints its usage and exits 0, doing nothing else', async (command) => {
  const { io, out, err } = capture();
  expect(await main([command, '--help'], io)).toBe(0);
  expect(out()).toContain(`isobudget ${command}`);
  expect(err()).toBe('');
});

test('`memory search -h` is help, not a search', async () => {
  const { io, out } = capture();
  expect(await main(['memory', 'search', '-h'], io)).toBe(0);
  expect(out()).toContain('isobudget memory');
});
