/**
 * `budget_tokens` caps everything the loop spends and is never exceeded: before every run and
 * call the loop adds that step's worst case (units left × B for a run, prompt + max_tokens for
 * a proposer call) to what its ledgers hold, and stops before a step that could not fit. A
 * sequential screen (the default) counts as the whole split: it may run to the end, so what it
 * usually spends is no bound. A resume with a larger cap continues from there, paying only for
 * what was not done.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { runEvolve } from '../src/evolve/loop.js';
import { copyEvolveExample, loopLedgers } from './support/evolve.js';

/** One val screen's worst case: (200 val cases × 4 arms + 20 regression cases × 2 arms) × B=1000. */
const SCREEN_WORST = 840_000;

test('the loop stops before a screen that could not fit, spends at most budget_tokens, and resumes with a larger cap', async () => {
  const dir = copyEvolveExample();
  const common = { storePath: join(dir, 'memory.sqlite'), cwd: dir, env: {}, simLatencyScale: 0.3 };
  // Room for the diagnosis, the proposer call and one screen's worst case, not for two.
  const cap = 1_000_000;
  const first = await runEvolve({ ...common, configPath: join(dir, 'experiment.yaml'), outDir: join(dir, 'evolve'), evolveId: 'capped', flags: { budgetTokens: cap, rounds: 2 } });
  const { summary, lineage } = first;
  expect(summary.status).toBe('stopped');
  expect(summary.stop.reason).toBe('budget_tokens');
  expect(summary.stop.message).toMatch(new RegExp(`the round-1 screen of version 3 may spend up to ${SCREEN_WORST} tokens and only \\d+ of budget_tokens ${cap} are left`));
  const sum = loopLedgers(first.dir).calls.reduce((acc, c) => acc + (c.total_tokens ?? 0), 0);
  expect(summary.tokens.total).toBe(sum);
  expect(sum).toBeLessThanOrEqual(cap);
  expect(sum + SCREEN_WORST).toBeGreaterThan(cap);
  // v2 (+11 pts) ran the whole split and stayed inconclusive at the corrected level; v3 was not started.
  expect(lineage.map((e) => [e.version, e.status, e.run_dir === null])).toEqual([['2', 'rejected', false], ['3', 'dropped', true]]);
  expect(lineage[0]).toMatchObject({ screening: 'sequential', stop_reason: 'exhausted', stopped_at: 200 });
  expect(lineage[1]?.reason).toMatch(/^not screened: /);
  expect(existsSync(join(first.dir, 'round-1', 'capped-r1-v3'))).toBe(false);

  const resumed = await runEvolve({ ...common, resumeDir: first.dir, flags: { budgetTokens: 5_000_000 } });
  const all = loopLedgers(first.dir).calls;
  expect(resumed.summary.tokens.total).toBe(all.reduce((acc, c) => acc + (c.total_tokens ?? 0), 0));
  expect(resumed.summary.rounds_run).toBe(2);
  // The first session's steps were not paid for twice: one diagnosis and one proposer call for round 1.
  expect(all.filter((c) => c.case_id === 'propose-r1')).toHaveLength(1);
  expect(new Set(all.filter((c) => c.run_id === 'capped-r1-diagnose').map((c) => c.case_id)).size).toBe(all.filter((c) => c.run_id === 'capped-r1-diagnose').length);
  const v3 = resumed.lineage.find((e) => e.version === '3');
  expect(v3).toMatchObject({ verdict: 'budget_leakage', stopped_at: 40 });
  // What v3's sequential screen really spent would have fitted under the first cap: the check counted its worst case, the whole split.
  expect(sum + (v3?.screen_tokens ?? Number.POSITIVE_INFINITY)).toBeLessThanOrEqual(cap);
  expect(v3?.tokens_full_split_estimate).toBeGreaterThan(v3?.screen_tokens ?? 0);
}, 120_000);
