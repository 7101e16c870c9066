/**
 * Issue 25: `gate --limit/--cases/--sample` is a trial on part of the test split, through the
 * CLI in-process on the shipped date-parser example (simulator). It runs layers 1–4 on those
 * cases, says "N of M", never promotes (exit 10, no review card, gate not passed), and counts
 * as a use of the test split for eval drift.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { main } from '../src/cli/main.js';
import type { CliIO } from '../src/cli/io.js';
import { runExperiment } from '../src/runner/run-experiment.js';

const root = join(import.meta.dirname, '..');
const config = join(root, 'examples', 'date-parser', 'experiment.yaml');

async function cli(args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const io: CliIO = { stdout: { write: (t) => void (out += t) }, stderr: { write: (t) => void (err += t) }, env: {}, cwd: root, signal: new AbortController().signal };
  const code = await main(args, io);
  return { code, out, err };
}

describe('gate on a subset of the test split', () => {
  const dir = mkdtempSync(join(tmpdir(), 'isobudget-gate-trial-'));
  const store = ['--store', join(dir, 'memory.sqlite')];
  const out = ['--out', join(dir, 'runs')];

  test('--limit 5: layers 1–4 run on 5 of 200 cases, nothing is promoted or queued, the use is counted', async () => {
    const val = await runExperiment({ configPath: config, split: 'val', outDir: join(dir, 'runs'), env: {} });
    expect((await cli(['memory', 'ingest', val.runDir, ...store])).code).toBe(0);

    const trial = await cli(['gate', config, '--limit', '5', '--auto-confirm', ...out, ...store]);
    expect(trial.err).not.toContain('internal error');
    expect(trial.code).toBe(10);
    expect(trial.out).toContain('trial: a gate on 5 of 200 test cases (--limit 5) is a trial: run it on the whole test split to promote');
    expect(trial.out).toMatch(/3 significance\s+\w+\s+.* on 5 test cases/);
    expect(trial.out).toMatch(/5 human\s+skipped\s+not run: a gate on 5 of 200 test cases \(--limit 5\) is a trial/);
    expect(trial.out).not.toContain('queued for review');
    const testRun = /test run (bf-\S+)/.exec(trial.out)?.[1] ?? '';
    const manifest = JSON.parse(readFileSync(join(dir, 'runs', testRun, 'manifest.json'), 'utf8')) as { split: string; partial?: unknown };
    expect(manifest).toMatchObject({ split: 'test', partial: { selection: '--limit 5', cases: 5, of: 200 } });

    // Even --auto-confirm on a clean trial neither passes the gate nor queues a card.
    const shown = await cli(['gate', '--show', 'gate-0001', '--json', ...store]);
    const [recorded] = JSON.parse(shown.out) as { gate: { status: string; review_id: string | null }; layers: { layer: number; details: unknown }[] }[];
    expect(recorded?.gate).toMatchObject({ status: 'failed', review_id: null });
    expect(recorded?.layers.find((l) => l.layer === 5)?.details).toMatchObject({ trial: { cases: 5, of: 200, selection: '--limit 5' } });
    expect((await cli(['review', '--json', ...store])).out).not.toContain('promotion');
    // The trial is not evidence on the candidate: only the val run is.
    const memory = await cli(['memory', 'show', 'mem-date-parser-001', '--json', ...store]);
    expect(memory.out).toContain(val.runId);
    expect(memory.out).not.toContain(testRun);

    // It looked at the test split, so it counts toward eval drift.
    expect((await cli(['gate', '--list', ...store])).out).toMatch(/test split [0-9a-f]{12} \(.*date-parser\/data\/test\.jsonl\): used 1 time\n/);
    const capped = await cli(['gate', config, '--sample', '3', '--seed', '7', '--max-test-uses', '1', ...out, ...store]);
    expect(capped.code).toBe(10);
    expect(capped.out).toContain('the test split was already used 1 times (--max-test-uses 1)');
  });

  test('an unknown --cases id or two selections are usage errors that open no gate', async () => {
    const before = (await cli(['gate', '--list', '--json', ...store])).out;
    const unknown = await cli(['gate', config, '--cases', 'no-such-case', ...out, ...store]);
    expect(unknown.code).toBe(2);
    expect(unknown.err).toContain("--cases: no case 'no-such-case' in the split");
    const both = await cli(['gate', config, '--limit', '2', '--sample', '2', ...out, ...store]);
    expect(both.code).toBe(2);
    expect(both.err).toContain('--limit and --sample choose cases differently');
    expect((await cli(['gate', '--list', '--json', ...store])).out).toBe(before);
  });
});
