/**
 * `evolve --resume` after a crash: the loop is killed with SIGKILL in the middle of a
 * (sequential) screen, resumed, and ends exactly as an uninterrupted loop does — same
 * proposals, statuses, verdicts, gains and sequential stops — with every billed call in its
 * ledgers once, summary.json's total equal to their sum, and no proposer question asked twice.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import type { EvolveSummary } from '../src/evolve/summary.js';
import { readJsonl } from '../src/ledger/jsonl-reader.js';
import type { CallRecord } from '../src/ledger/records.js';
import type { LineageEntry } from '../src/evolve/types.js';
import { runCli } from './support/cli.js';
import { copyEvolveExample, loopLedgers } from './support/evolve.js';

type Output = EvolveSummary & { lineage: LineageEntry[] };

/** What a call counts toward budget_tokens: billed; a call in flight at the crash (outcome unknown) its reservation. */
const spent = (c: CallRecord): number => (c.note === 'outcome_unknown' ? (c.reserved_tokens ?? 0) : c.error === undefined ? (c.total_tokens ?? 0) : 0);

// A sequential screen's decision (its stop, and every number read up to it) is the same however the run was cut; what
// it spends is not quite: cases in flight at the stop finish, and which were in flight depends on timing.
const comparable = (lineage: readonly LineageEntry[]): unknown[] => lineage.map((e) => [e.round, e.version, e.status, e.verdict, e.n1_delta, e.ci95, e.proposer_tokens, e.screening, e.stopped_at, e.stop_reason]);

test('SIGKILL mid-screen, then --resume, ends as an uninterrupted loop', async () => {
  const args = (dir: string, id: string): string[] => ['evolve', join(dir, 'experiment.yaml'), '--rounds', '2', '--id', id, '--out', join(dir, 'evolve'), '--store', join(dir, 'memory.sqlite'), '--json'];
  const referenceDir = copyEvolveExample();
  const reference = await runCli(args(referenceDir, 'loop'), { cwd: referenceDir });
  expect(reference.code, reference.stderr).toBe(0);
  const expected = JSON.parse(reference.stdout) as Output;

  const dir = copyEvolveExample();
  const results = join(dir, 'evolve', 'loop', 'round-1', 'loop-r1-v3', 'results.jsonl');
  const killed = await runCli([...args(dir, 'loop'), '--sim-latency-scale', '0.5'], {
    cwd: dir,
    onSpawn: (child) => {
      const timer = setInterval(() => {
        // Kill once the second screen of round 1 is part-way through.
        const lines = existsSync(results) ? readFileSync(results, 'utf8').split('\n').length - 1 : 0;
        if (lines >= 60) {
          clearInterval(timer);
          child.kill('SIGKILL');
        }
      }, 5);
    },
  });
  expect(killed.signal).toBe('SIGKILL');
  const state = JSON.parse(readFileSync(join(dir, 'evolve', 'loop', 'state.json'), 'utf8')) as { status: string };
  expect(state.status).toBe('running');

  const resumed = await runCli(['evolve', '--resume', join(dir, 'evolve', 'loop'), '--json'], { cwd: dir });
  expect(resumed.code, resumed.stderr).toBe(0);
  const output = JSON.parse(resumed.stdout) as Output;
  expect(comparable(output.lineage)).toEqual(comparable(expected.lineage));
  expect(output.val).toEqual(expected.val);
  expect(output.final_skill?.version).toBe(expected.final_skill?.version);

  const { calls } = loopLedgers(join(dir, 'evolve', 'loop'));
  expect(output.tokens.total).toBe(calls.reduce((acc, c) => acc + spent(c), 0));
  // Each committed call once: the calls of units cut off by the kill were moved to interrupted-calls.jsonl, never duplicated.
  const committed = loopLedgers(join(dir, 'evolve', 'loop')).files.filter((f) => f.endsWith('/calls.jsonl')).flatMap((f) => readJsonl<CallRecord>(f).records);
  const keys = committed.map((c) => `${c.run_id}|${c.case_id}|${c.arm}|${c.epoch}|${c.path}|${c.attempt}`);
  expect(new Set(keys).size).toBe(keys.length);
  expect(calls.filter((c) => c.role === 'propose' && c.case_id === 'propose-r1')).toHaveLength(1);
  const replies = readFileSync(join(dir, 'evolve', 'loop', 'round-1', 'proposer-replies.jsonl'), 'utf8').trim().split('\n').map((l) => (JSON.parse(l) as { step: string }).step);
  expect(new Set(replies).size).toBe(replies.length);
  const finalState = JSON.parse(readFileSync(join(dir, 'evolve', 'loop', 'state.json'), 'utf8')) as { status: string; resumed: number };
  expect(finalState).toMatchObject({ status: 'complete', resumed: 1 });
}, 180_000);

test('Ctrl-C (SIGINT) stops the loop cleanly with exit 130 and a resume hint; --resume finishes it', async () => {
  const dir = copyEvolveExample();
  const loop = join(dir, 'evolve', 'cc');
  const results = join(loop, 'round-1', 'cc-r1-v2', 'results.jsonl');
  const interrupted = await runCli(['evolve', join(dir, 'experiment.yaml'), '--rounds', '1', '--id', 'cc', '--out', join(dir, 'evolve'), '--store', join(dir, 'memory.sqlite'), '--sim-latency-scale', '0.5'], {
    cwd: dir,
    onSpawn: (child) => {
      const timer = setInterval(() => {
        if (existsSync(results) && readFileSync(results, 'utf8').length > 0) {
          clearInterval(timer);
          child.kill('SIGINT');
        }
      }, 5);
    },
  });
  expect(interrupted.code, interrupted.stderr).toBe(130);
  expect(interrupted.stderr).toContain(`resume with: isobudget evolve --resume ${loop}`);
  expect(JSON.parse(readFileSync(join(loop, 'state.json'), 'utf8'))).toMatchObject({ status: 'interrupted', stop: { reason: 'interrupted' } });
  const resumed = await runCli(['evolve', '--resume', loop, '--json'], { cwd: dir });
  expect(resumed.code, resumed.stderr).toBe(0);
  const output = JSON.parse(resumed.stdout) as Output;
  expect(output.status).toBe('complete');
  expect(output.lineage.map((e) => [e.version, e.status, e.verdict, e.stop_reason])).toEqual([['2', 'rejected', 'inconclusive', 'exhausted'], ['3', 'rejected', 'budget_leakage', expect.stringMatching(/^(leakage|futility)$/)]]);
  expect(output.tokens.total).toBe(loopLedgers(loop).calls.reduce((acc, c) => acc + spent(c), 0));
}, 120_000);
