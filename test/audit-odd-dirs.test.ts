/**
 * `audit --runs DIR --gateway DIR` on what a user's folders really hold (issue 11, "Hostile and
 * odd input": exit 2 with one located line or a clean skip, never an internal error): a
 * dangling symlink, a FIFO, a file where a folder belongs, and a `*.jsonl` that is not a
 * ledger at all (never quoted).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { main } from '../src/cli/main.js';

async function audit(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const io = { stdout: { write: (t: string) => void (stdout += t) }, stderr: { write: (t: string) => void (stderr += t) }, env: {}, cwd: process.cwd(), signal: new AbortController().signal };
  const code = await main(['audit', '--since', '2026-01-01', '--until', '2026-12-31', ...args], io);
  return { code, stdout, stderr };
}

const CALL = JSON.stringify({ kind: 'call', role: 'gateway', ts: '2026-06-01T10:00:00Z', session: 's1', attempt: 1, prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 });

test('a dangling symlink and a FIFO in the folders are skipped; the real ledger is read', async () => {
  const root = mkdtempSync(join(tmpdir(), 'isobudget-audit-odd-'));
  const gateway = join(root, 'gateway');
  const runs = join(root, 'runs');
  mkdirSync(join(gateway, 'old'), { recursive: true });
  mkdirSync(runs);
  writeFileSync(join(gateway, 'old', 'calls-2026-06-01.jsonl'), `${CALL}\n`);
  symlinkSync(join(root, 'gone'), join(gateway, 'dead.jsonl'));
  symlinkSync(join(root, 'gone'), join(runs, 'dead-run'));
  execFileSync('mkfifo', [join(gateway, 'pipe.jsonl')]);
  const result = await audit(['--runs', runs, '--gateway', gateway]);
  expect(result.stderr).not.toMatch(/internal error|\n\s+at /);
  expect(result.code, result.stderr).toBe(0);
  expect(result.stdout).toContain('1 gateway files');
});

test('--gateway naming a file, or --runs naming one: exit 2, one line naming it', async () => {
  const root = mkdtempSync(join(tmpdir(), 'isobudget-audit-file-'));
  const file = join(root, 'calls.jsonl');
  writeFileSync(file, `${CALL}\n`);
  for (const flag of ['--gateway', '--runs']) {
    const result = await audit([flag, file]);
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr.split('\n')[0]).toContain(file);
    expect(result.stderr.split('\n')[0]).toContain(`${flag} must name a folder`);
    expect(result.stderr).not.toMatch(/internal error|\n\s+at /);
  }
});

test('a *.jsonl that is not a ledger is an error at its line that quotes nothing of it', async () => {
  const gateway = mkdtempSync(join(tmpdir(), 'isobudget-audit-notes-'));
  writeFileSync(join(gateway, 'notes.jsonl'), 'Qsk-live-7f3a9 my key\n');
  const result = await audit(['--gateway', gateway]);
  expect(result.code).toBe(2);
  expect(result.stderr.split('\n')[0]).toContain(`${join(gateway, 'notes.jsonl')}:1: invalid JSON`);
  expect(result.stderr).not.toMatch(/'Q'|sk-live/);
});
