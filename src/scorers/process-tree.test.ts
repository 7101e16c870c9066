import { readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { EvalCase } from '../core/case.js';
import { commandScorer } from './command.js';
import { runProcess } from './run-process.js';

// Escaped descendants are found through /proc; the group kill is all other systems get.
const linux = process.platform === 'linux';

function makeCase(): EvalCase {
  return { id: 'c1', input: 'q', messages: undefined, expected: 'x', reference: undefined, category: undefined, tags: [], cluster: undefined, metadata: {}, source: { file: 't.jsonl', line: 1 } };
}

/** A zombie still answers kill(pid, 0) until reaped; it is gone for our purposes. */
function isAlive(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

async function readPids(file: string): Promise<number[]> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const text = await readFile(file, 'utf8').catch(() => '');
    const pids = text.split(/\s+/).filter(Boolean).map(Number);
    if (pids.length > 0 || Date.now() > deadline) return pids;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function goneWithin(pids: number[], ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (pids.every((pid) => !isAlive(pid))) return true;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return pids.every((pid) => !isAlive(pid));
}

let dir = '';
const leftovers: number[] = [];
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'isobudget-process-tree-'));
});
afterAll(async () => {
  // Never leave a `sleep 1000` behind, even when an assertion failed.
  for (const pid of leftovers) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // gone
    }
  }
  await rm(dir, { recursive: true, force: true });
});

describe.runIf(linux)('timeouts hold against children that leave the process group', () => {
  test('a scorer whose child calls `setsid sleep 1000` ends within 2 s of its timeout_ms and leaves nothing', async () => {
    const pidFile = join(dir, 'setsid.pid');
    // The escaped sleep holds stdout open: before, the scorer waited for the pipe for ever.
    const argv = ['sh', '-c', `setsid sleep 1000 & echo $! > ${pidFile}; wait`];
    const started = Date.now();
    const score = await commandScorer({ argv, timeoutMs: 500 }).score({ output: '', evalCase: makeCase() });
    const elapsed = Date.now() - started;
    const pids = await readPids(pidFile);
    leftovers.push(...pids);
    expect(score).toMatchObject({ passed: false, error: 'timeout after 500 ms' });
    expect(elapsed).toBeLessThan(500 + 2000);
    expect(pids).toHaveLength(1);
    expect(await goneWithin(pids, 2000)).toBe(true);
  });

  test('a descendant that scrubbed its environment is found through its live parent', async () => {
    const pidFile = join(dir, 'scrubbed.pid');
    const argv = ['sh', '-c', `setsid env -i sleep 1000 & echo $! > ${pidFile}; wait`];
    const result = await runProcess({ argv, timeoutMs: 500, env: { PATH: process.env.PATH }, captureBytes: 1000 });
    const pids = await readPids(pidFile);
    leftovers.push(...pids);
    expect(result.kind).toBe('timeout');
    expect(pids).toHaveLength(1);
    expect(await goneWithin(pids, 2000)).toBe(true);
  });

  test('a daemon started by a command that exits is killed with it, and does not hold its result', async () => {
    const pidFile = join(dir, 'daemon.pid');
    // The subshell exits at once: the escaped sleep is re-parented to init, holding stdout.
    const argv = ['sh', '-c', `(setsid sleep 1000 & echo $! > ${pidFile}); echo ok`];
    const result = await runProcess({ argv, timeoutMs: 30_000, env: { PATH: process.env.PATH }, captureBytes: 1000 });
    const pids = await readPids(pidFile);
    leftovers.push(...pids);
    expect(result).toMatchObject({ kind: 'exited', exitCode: 0, stdout: 'ok\n' });
    expect(pids).toHaveLength(1);
    expect(await goneWithin(pids, 2000)).toBe(true);
  });

  test('a daemon with its own session and new children is killed with all of them', async () => {
    const pidFile = join(dir, 'session.pids');
    // The escaped leader forks two sleepers in its session and then scrubs nothing: all three go.
    const inner = `sleep 1000 & echo $! >> ${pidFile}; sleep 1000 & echo $! >> ${pidFile}; echo $$ >> ${pidFile}; wait`;
    const argv = ['sh', '-c', `setsid sh -c '${inner}' > /dev/null 2>&1 & sleep 1000`];
    const result = await runProcess({ argv, timeoutMs: 700, env: { PATH: process.env.PATH }, captureBytes: 1000 });
    const deadline = Date.now() + 5000;
    let pids = await readPids(pidFile);
    while (pids.length < 3 && Date.now() < deadline) pids = await readPids(pidFile);
    leftovers.push(...pids);
    expect(result.kind).toBe('timeout');
    expect(pids).toHaveLength(3);
    expect(await goneWithin(pids, 2000)).toBe(true);
  });
});
