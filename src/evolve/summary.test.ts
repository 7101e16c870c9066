/**
 * summary.json's val pass per round with sequential screens: a screen that stopped for futility
 * after 40 cases does not replace the incumbent's estimate from a screen that read more; fixed
 * screens (the whole split each) behave as before. And the screening block adds up the lineage.
 */
import { describe, expect, test } from 'vitest';
import { evolveSettings } from './settings.js';
import { buildSummary } from './summary.js';
import type { LineageEntry } from './types.js';
import { loadConfig } from '../config/index.js';

const EXAMPLE = new URL('../../examples/evolve-date-parser/experiment.yaml', import.meta.url).pathname;

function entry(over: Partial<LineageEntry>): LineageEntry {
  return {
    version: '2', parent: '1', round: 1, slot: 1, diff: '', summary: '', status: 'rejected', reason: '', repaired: false, verdict: 'no_gain', n1_delta: 0, ci95: [0, 0], confidence: 0.995,
    screening: 'sequential', stopped_at: 200, stop_reason: 'exhausted', tokens_full_split_estimate: 1000, tokens_per_success_ratio: 1, proposer_tokens: 0, screen_tokens: 1000, run_dir: 'r',
    memory_id: null, candidate_id: null, baseline_pass: 0.5, baseline_pass_ci: [0.4, 0.6], candidate_pass: 0.5, candidate_pass_ci: [0.4, 0.6], ...over,
  };
}

async function summarize(lineage: LineageEntry[], rounds: number) {
  const config = await loadConfig(EXAMPLE);
  return buildSummary({
    evolveId: 'e', experiment: 'x', configPath: EXAMPLE, status: 'complete', stop: { reason: 'rounds', message: '' }, settings: evolveSettings(config), roundsRun: rounds, lineage,
    tokens: { total: 0, byPhase: { diagnose: 0, propose: 0, screen: 0 }, byRound: new Map(), callsMissingUsage: 0, ledgers: [] }, start: { version: '1', file: 'f' }, finalSkill: null, finalVsStart: null, gateCommand: null, now: new Date(0),
  });
}

describe('summary.json with sequential screens', () => {
  test('the incumbent keeps the estimate read on more cases; the screening block sums the lineage', async () => {
    const lineage = [
      entry({ version: '2', stopped_at: 200, stop_reason: 'exhausted', baseline_pass: 0.455, screen_tokens: 900, tokens_full_split_estimate: 900 }),
      entry({ version: '3', slot: 2, stopped_at: 40, stop_reason: 'futility', baseline_pass: 0.5, screen_tokens: 200, tokens_full_split_estimate: 1000 }),
      entry({ version: '4', round: 2, status: 'accepted', verdict: 'real_evolution', stopped_at: 120, stop_reason: 'efficacy', baseline_pass: 0.45, candidate_pass: 0.59, screen_tokens: 600, tokens_full_split_estimate: 1000 }),
      entry({ version: '5', parent: '4', round: 3, stopped_at: 40, stop_reason: 'futility', baseline_pass: 0.625, screen_tokens: 200, tokens_full_split_estimate: 1000 }),
      entry({ version: '6', parent: '4', round: 4, stopped_at: 140, stop_reason: 'futility', baseline_pass: 0.6, screen_tokens: 700, tokens_full_split_estimate: 1000 }),
    ];
    const summary = await summarize(lineage, 4);
    expect(summary.val.start).toMatchObject({ version: '1', pass: 0.455 });
    expect(summary.val.per_round.map((p) => [p.round, p.version, p.pass])).toEqual([[1, '1', 0.455], [2, '4', 0.59], [3, '4', 0.59], [4, '4', 0.6]]);
    expect(summary.screening).toMatchObject({ method: 'sequential', screens: 5, stopped_early: 4, tokens_spent: 2600, tokens_full_split_estimate: 4900, tokens_fraction: 2600 / 4900 });
    expect(summary.screening.sequential).toEqual({ look_every: 20, min_cases: 40, confidence: expect.closeTo(0.995, 12), gain_confidence: 0.8, futility_confidence: 0.6 });
  });

  test('fixed screens: every round\'s own screen of the incumbent is its estimate, as before', async () => {
    const fixed = { screening: 'fixed' as const, stopped_at: null, stop_reason: null, tokens_full_split_estimate: null };
    const summary = await summarize([entry({ ...fixed, baseline_pass: 0.45 }), entry({ ...fixed, version: '3', round: 2, baseline_pass: 0.47 })], 2);
    expect(summary.val.per_round.map((p) => p.pass)).toEqual([0.45, 0.47]);
    expect(summary.screening).toMatchObject({ stopped_early: 0, tokens_spent: 2000, tokens_full_split_estimate: 2000, tokens_fraction: 1 });
  });
});
