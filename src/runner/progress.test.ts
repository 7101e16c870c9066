/**
 * The progress line (issue 15, item 6): fits the terminal, redraws in place, keeps A B C D in
 * plan order, labels its spend, shows an ETA only once enough units are done; off a terminal
 * it writes plain lines, rate-limited.
 */
import { describe, expect, test } from 'vitest';
import { armsFor } from './plan.js';
import { etaMinimum, PLAIN_HEARTBEAT_MS, Progress, type ProgressSink } from './progress.js';
import { progressLine, type ProgressSnapshot } from './progress-line.js';

function sink(isTTY: boolean, columns?: number): ProgressSink & { writes: string[] } {
  const writes: string[] = [];
  return { writes, isTTY, columns, write: (text: string) => void writes.push(text) };
}

/** Drives a run of `total` units over `durationMs` on a fake clock; arms finish out of plan order. */
function drive(total: number, durationMs: number, output: ProgressSink, bestOfN = [1, 8]): Progress {
  let now = 0;
  const arms = armsFor(bestOfN);
  const progress = new Progress({ total, sink: output, arms, now: () => now });
  for (let i = 0; i < total; i += 1) {
    now = ((i + 1) / total) * durationMs;
    // The best-of-N arm of a case often reports first: the line must not follow that order.
    const arm = arms[(arms.length - 1 - (i % arms.length))] ?? arms[0];
    if (!arm) throw new Error('no arms');
    progress.addSpend(arm.arm, 300 * arm.n);
    progress.unitDone({ arm: arm.arm, split: i % 10 === 0 ? 'regression' : 'val', passes: i % 3 === 0 ? 0 : arm.n, n: arm.n });
  }
  progress.finish();
  return progress;
}

const snapshot = (arms: number, tokens: number, etaMs: number | undefined, done = 123_456, total = 200_000): ProgressSnapshot => ({
  elapsedMs: 3_725_000,
  done,
  total,
  arms: ['A', 'B', 'C4', 'D4', 'C8', 'D8'].slice(0, arms).map((label, i) => ({ label, passRate: i % 2 === 0 ? 0.585 : 1, tokens: tokens * (i + 1) })),
  etaMs,
});

describe('progress line', () => {
  test('fits every width from 20 to 200 columns, whatever the arms and the spend', () => {
    for (const arms of [2, 4, 6]) {
      for (const tokens of [0, 999, 12_345, 98_765_432]) {
        for (let columns = 20; columns <= 200; columns += 1) {
          const line = progressLine(snapshot(arms, tokens, 65_000), columns);
          expect([...line].length, `${arms} arms, ${tokens} tokens, ${columns} columns: ${line}`).toBeLessThanOrEqual(columns - 1);
          expect(line).not.toMatch(/[\n\r]/);
        }
      }
    }
  });

  test('at 80 columns: elapsed time, units, pass@1 of every arm in order, labelled spend, ETA', () => {
    const line = progressLine(snapshot(4, 25_100, 65_000, 352, 880), 80);
    expect(line).toMatch(/^1h02m\s+352\/880/);
    expect(line).toMatch(/pass@1 A 5[89]% B 100% C4 5[89]% D4 100%/);
    expect(line).toMatch(/tokens: \d/);
    expect(line).toMatch(/eta 1m05s$/);
    // With room, the richer form: one decimal and tokens per arm.
    expect(progressLine(snapshot(4, 25_100, 65_000), 160)).toContain('pass@1 A 58.5% B 100.0% C4 58.5% D4 100.0%  tokens: A 25.1k B 50.2k C4 75.3k D4 100.4k');
  });
});

describe('Progress on a terminal', () => {
  test('880 units in 5 s at 80 columns: every redraw returns to the line start, one line in the end', () => {
    const output = sink(true, 80);
    drive(880, 5_000, output);
    const text = output.writes.join('');
    expect(text.split('\n').length).toBe(2);
    expect(text.endsWith('\n')).toBe(true);
    for (const write of output.writes.slice(0, -1)) {
      expect(write.startsWith('\r')).toBe(true);
      expect(write.endsWith('\x1b[K')).toBe(true);
      expect([...write.slice(1, -3)].length).toBeLessThanOrEqual(79);
    }
    // Redraws are throttled: ~5 s / 150 ms, not one per unit.
    expect(output.writes.length).toBeLessThan(50);
    const last = output.writes.at(-2) ?? '';
    // Stable order A B C D, whatever finished first; regression units left out of the rates.
    expect(last).toMatch(/pass@1 A \d+% B \d+% C \d+% D \d+%/);
    expect(last).toContain('tokens: ');
  });

  test('no ETA before enough units, then one', () => {
    let now = 0;
    const progress = new Progress({ total: 880, sink: undefined, arms: armsFor([1, 8]), now: () => now });
    for (let i = 1; i <= 200; i += 1) {
      now = i * 10;
      progress.unitDone({ arm: 'baseline_single', split: 'val', passes: 1, n: 1 });
      const { etaMs } = progress.snapshot();
      if (i < etaMinimum(880)) expect(etaMs, `after ${i} units`).toBeUndefined();
      else expect(etaMs).toBeCloseTo(10 * (880 - i), 6);
    }
    expect(etaMinimum(880)).toBe(50);
    expect(etaMinimum(20)).toBe(3);
  });

  test('the columns are read at each redraw: a narrower terminal gets a shorter line', () => {
    let now = 0;
    const output = { writes: [] as string[], isTTY: true, columns: 120, write(text: string) { this.writes.push(text); } };
    const progress = new Progress({ total: 10, sink: output, arms: armsFor([1, 8]), now: () => now });
    now = 1000;
    progress.unitDone({ arm: 'baseline_single', split: 'val', passes: 1, n: 1 });
    output.columns = 40;
    now = 2000;
    progress.unitDone({ arm: 'baseline_single', split: 'val', passes: 1, n: 1 });
    expect([...(output.writes[1] ?? '')].length - 4).toBeLessThanOrEqual(39);
  });
});

describe('Progress off a terminal', () => {
  test('a 5-second run writes one plain line (the last)', () => {
    const output = sink(false);
    drive(880, 5_000, output);
    expect(output.writes).toHaveLength(1);
    expect(output.writes[0]).toMatch(/^progress 5s\s+880\/880 units \(100%\)\s+pass@1 A [\d.]+% B [\d.]+% C [\d.]+% D [\d.]+%\s+tokens: A /);
    expect(output.writes[0]?.endsWith('\n')).toBe(true);
  });

  test("a 20-minute run: one line per decile, never two within 10 s, the last not twice", () => {
    const output = sink(false);
    drive(880, 20 * 60_000, output);
    expect(output.writes).toHaveLength(10);
    expect(output.writes.at(-1)).toMatch(/^progress 20m00s\s+880\/880 units \(100%\)/);
  });

  test('a slow decile still gets a heartbeat line', () => {
    let now = 0;
    const output = sink(false);
    const progress = new Progress({ total: 1000, sink: output, arms: armsFor([1, 8]), now: () => now });
    for (let i = 0; i < 50; i += 1) {
      now += PLAIN_HEARTBEAT_MS / 10;
      progress.unitDone({ arm: 'baseline_single', split: 'val', passes: 1, n: 1 });
    }
    // 50 units, 5% of the run, over 5 heartbeats: no decile was reached, yet 5 lines were written.
    expect(output.writes).toHaveLength(5);
  });
});
