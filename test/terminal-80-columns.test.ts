/**
 * Issue 15, item 6, must show: in a real terminal 80 columns wide (tmux), a run of the
 * date-parser example prints at most 5 lines of progress in total and no line longer than 80
 * columns — the progress line is redrawn in place and fits, the table takes its narrow
 * layout, prose wraps. `capture-pane -J` joins rows the terminal wrapped, so a line that
 * wrapped shows up as one line wider than 80.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { expect, test } from 'vitest';
import { BIN as BUILT_BIN } from './support/cli.js';

// ISOBUDGET_TEST_BIN runs this test against another build (how it was shown to fail before the fix).
const BIN = process.env.ISOBUDGET_TEST_BIN ?? BUILT_BIN;

const CONFIG = join(import.meta.dirname, '..', 'examples', 'date-parser', 'experiment.yaml');
const COLUMNS = 80;

function hasTmux(): boolean {
  try {
    execFileSync('tmux', ['-V'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

const tmuxMissing = !hasTmux();
if (tmuxMissing) process.stderr.write('skipping the 80-column terminal test: tmux is not installed (apt-get install tmux)\n');

test.skipIf(tmuxMissing)('date-parser at 80 columns: ≤ 5 progress lines, no line wider than 80', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'isobudget-tty-'));
  // A private server (-L): the test never touches a user's tmux sessions.
  const socket = `isobudget-test-${process.pid}`;
  const tmux = (...args: string[]): string => execFileSync('tmux', ['-L', socket, ...args], { encoding: 'utf8', env: { ...process.env, TERM: 'xterm-256color' } });
  const shellQuote = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;
  let socketPath = '';
  try {
    const command = `cd ${shellQuote(dir)} && ${shellQuote(process.execPath)} ${shellQuote(BIN)} run ${shellQuote(CONFIG)} --out runs; echo "__DONE__ $?"; sleep 600`;
    tmux('new-session', '-d', '-x', String(COLUMNS), '-y', '40', '-s', 'run', command);
    socketPath = tmux('display-message', '-p', '#{socket_path}').trim();
    let screen = '';
    const deadline = Date.now() + 90_000;
    while (Date.now() < deadline) {
      await sleep(300);
      screen = tmux('capture-pane', '-p', '-J', '-t', 'run', '-S', '-');
      if (/__DONE__ \d+/.test(screen)) break;
    }
    expect(screen, screen).toMatch(/__DONE__ 0/);
    const lines = screen.split('\n').map((line) => line.replace(/\s+$/, ''));
    const wide = lines.filter((line) => [...line].length > COLUMNS);
    expect(wide, screen).toEqual([]);
    const progress = lines.filter((line) => /\b\d+\/880\b/.test(line));
    expect(progress.length, screen).toBeGreaterThanOrEqual(1);
    // Counted on the terminal's own rows too (no -J): a redraw that wrapped leaves rows behind.
    const rows = tmux('capture-pane', '-p', '-t', 'run', '-S', '-').split('\n').filter((row) => /\b\d+\/880\b/.test(row));
    expect(rows.length, screen).toBeLessThanOrEqual(5);
    // The final progress line: elapsed, units, every arm's pass@1 in order, labelled spend.
    expect(progress.at(-1)).toMatch(/^\d+s\s+880\/880 units \(100%\)\s+pass@1 A 5[89]% B 8[23]% C 5[89]% D 8[23]%\s+tokens: /);
    // The narrow table: one row per measure, one column per arm.
    expect(screen).toMatch(/^pass@1\s+58\.5%\s+82\.5%\s+58\.6%\s+81\.8%$/m);
    expect(screen).toContain('passes screening on val — next: isobudget gate');
  } finally {
    try {
      tmux('kill-server');
    } catch {
      // Already gone.
    }
    // kill-server leaves the socket file behind.
    if (socketPath) rmSync(socketPath, { force: true });
    rmSync(dir, { recursive: true, force: true });
  }
}, 120_000);
