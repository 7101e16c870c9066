import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { EvalCase } from '../core/case.js';
import { IsobudgetError } from '../core/errors.js';
import { commandScorer } from './command.js';

function makeCase(expected: unknown, id = 'c1'): EvalCase {
  return { id, input: 'q', messages: undefined, expected, reference: undefined, category: undefined, tags: [], cluster: undefined, metadata: {}, source: { file: 't.jsonl', line: 1 } };
}

/** A zombie still answers kill(pid, 0) until reaped; it is gone for our purposes. */
function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

async function waitUntilGone(pids: number[], withinMs: number): Promise<boolean> {
  const deadline = Date.now() + withinMs;
  while (Date.now() < deadline) {
    if (pids.every((pid) => !isAlive(pid))) return true;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return false;
}

// Compares trimmed output and expected files; prints a verdict line on stdout.
const COMPARE = `const fs = require('fs'); const [o, e] = process.argv.slice(1);
const out = fs.readFileSync(o, 'utf8').trim(), exp = fs.readFileSync(e, 'utf8').trim();
console.log(out === exp ? 'match' : 'mismatch: ' + out + ' vs ' + exp); process.exit(out === exp ? 0 : 1);`;
const compareArgv = [process.execPath, '-e', COMPARE, '{{output_file}}', '{{expected_file}}'];

let dir = '';
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'isobudget-command-test-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('commandScorer', () => {
  test.each([
    { name: 'equal', output: 'Paris', expected: 'Paris', passed: true, explanation: 'match' },
    { name: 'different → exit 1', output: 'Lyon', expected: 'Paris', passed: false, explanation: 'mismatch: Lyon vs Paris' },
    { name: 'expected number written as text', output: '42', expected: 42, passed: true, explanation: 'match' },
    { name: 'expected object written as JSON', output: '{"a":1}', expected: { a: 1 }, passed: true, explanation: 'match' },
    { name: 'unicode', output: '北京 ✓', expected: '北京 ✓', passed: true, explanation: 'match' },
    { name: 'empty output', output: '', expected: 'x', passed: false, explanation: 'mismatch:  vs x' },
    { name: 'shell syntax in output is inert', output: '$(touch /tmp/pwned); `id`', expected: '$(touch /tmp/pwned); `id`', passed: true, explanation: 'match' },
  ])('$name', async ({ output, expected, passed, explanation }) => {
    const score = await commandScorer({ argv: compareArgv, timeoutMs: 10_000 }).score({ output, evalCase: makeCase(expected) });
    expect(score).toEqual({ passed, value: passed ? 1 : 0, explanation });
  });

  test('placeholders are substituted inside arguments, and nothing else is expanded', async () => {
    const argv = [process.execPath, '-e', 'console.log(process.argv.slice(1).join("|"))', '--', '--id={{case_id}}', '$HOME', '*'];
    const score = await commandScorer({ argv, timeoutMs: 10_000 }).score({ output: '', evalCase: makeCase('x', 'date-014') });
    expect(score.explanation).toBe('--id=date-014|$HOME|*');
  });

  test('the child gets the file paths in env but not our secrets', async () => {
    process.env.ISOBUDGET_TEST_SECRET_KEY = 'sk-should-not-leak';
    try {
      const code = 'const fs = require("fs"); console.log(process.env.ISOBUDGET_TEST_SECRET_KEY ?? "absent", fs.readFileSync(process.env.ISOBUDGET_OUTPUT_FILE, "utf8"), process.env.ISOBUDGET_CASE_ID)';
      const score = await commandScorer({ argv: [process.execPath, '-e', code], timeoutMs: 10_000 }).score({ output: 'hello', evalCase: makeCase('x', 'k9') });
      expect(score.explanation).toBe('absent hello k9');
    } finally {
      delete process.env.ISOBUDGET_TEST_SECRET_KEY;
    }
  });

  test('the temp dir is removed afterwards', async () => {
    const score = await commandScorer({ argv: [process.execPath, '-e', 'console.log(process.argv[1])', '{{output_file}}'], timeoutMs: 10_000 }).score({ output: 'x', evalCase: makeCase('x') });
    const outputFile = score.explanation ?? '';
    expect(outputFile).toMatch(/isobudget-score-/);
    expect(existsSync(dirname(outputFile))).toBe(false);
  });

  test('stdout is cut to its first 2 KB', async () => {
    const score = await commandScorer({ argv: [process.execPath, '-e', 'process.stdout.write("a".repeat(5000))'], timeoutMs: 10_000 }).score({ output: '', evalCase: makeCase('x') });
    expect(score.passed).toBe(true);
    expect(score.explanation).toBe('a'.repeat(2048));
  });

  test('a failing checker with no stdout explains with stderr', async () => {
    const score = await commandScorer({ argv: [process.execPath, '-e', 'console.error("bad format"); process.exit(3)'], timeoutMs: 10_000 }).score({ output: '', evalCase: makeCase('x') });
    expect(score).toEqual({ passed: false, value: 0, explanation: 'bad format' });
  });

  test('a silent failing checker reports its exit code', async () => {
    const score = await commandScorer({ argv: [process.execPath, '-e', 'process.exit(2)'], timeoutMs: 10_000 }).score({ output: '', evalCase: makeCase('x') });
    expect(score).toEqual({ passed: false, value: 0, explanation: 'exit code 2' });
  });

  test('a sleeping process tree times out and is gone afterwards', async () => {
    const pidFile = join(dir, 'timeout.pids');
    // sh is the direct child; sleep is a grandchild in the same process group.
    const argv = ['sh', '-c', `echo $$ > ${pidFile}; sleep 60 & echo $! >> ${pidFile}; wait`];
    const started = Date.now();
    const score = await commandScorer({ argv, timeoutMs: 500 }).score({ output: '', evalCase: makeCase('x') });
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(score).toMatchObject({ passed: false, value: 0, error: 'timeout after 500 ms' });
    const pids = (await readFile(pidFile, 'utf8')).trim().split('\n').map(Number);
    expect(pids).toHaveLength(2);
    expect(await waitUntilGone(pids, 2_000)).toBe(true);
  });

  test('a background grandchild does not hold a passing checker until the timeout', async () => {
    const pidFile = join(dir, 'background.pids');
    const argv = ['sh', '-c', `sleep 60 & echo $! > ${pidFile}; echo done`];
    const started = Date.now();
    const score = await commandScorer({ argv, timeoutMs: 20_000 }).score({ output: '', evalCase: makeCase('x') });
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(score).toEqual({ passed: true, value: 1, explanation: 'done' });
    const pids = (await readFile(pidFile, 'utf8')).trim().split('\n').map(Number);
    expect(await waitUntilGone(pids, 2_000)).toBe(true);
  });

  test('a nonexistent binary is a scorer error', async () => {
    const score = await commandScorer({ argv: ['isobudget-no-such-binary-xyz', '{{output_file}}'], timeoutMs: 5_000 }).score({ output: 'x', evalCase: makeCase('x') });
    expect(score).toMatchObject({ passed: false, value: 0, error: 'command not found: isobudget-no-such-binary-xyz' });
  });

  test('a checker killed by a signal is a scorer error', async () => {
    const score = await commandScorer({ argv: [process.execPath, '-e', 'process.kill(process.pid, "SIGTERM"); setTimeout(() => {}, 10000)'], timeoutMs: 10_000 }).score({ output: '', evalCase: makeCase('x') });
    expect(score.error).toContain('terminated by SIGTERM');
  });

  test('an abort signal kills the checker', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 200);
    const started = Date.now();
    const score = await commandScorer({ argv: ['sleep', '60'], timeoutMs: 30_000 }).score({ output: '', evalCase: makeCase('x'), signal: controller.signal });
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(score.error).toBe('aborted');
  });

  test.each([
    { name: 'empty argv', argv: [], timeoutMs: 1000 },
    { name: 'empty program', argv: [''], timeoutMs: 1000 },
    { name: 'zero timeout', argv: ['true'], timeoutMs: 0 },
  ])('config error: $name', ({ argv, timeoutMs }) => {
    expect(() => commandScorer({ argv, timeoutMs })).toThrow(IsobudgetError);
  });
});
