/**
 * The `evolve:` block (the self-evolution loop, `isobudget evolve`) and `datasets.refresh`
 * (`datasets add-failures`). Validation only; `normalize-evolve.ts` applies the defaults.
 */
import { z } from 'zod';
import { DEFAULTS } from './defaults.js';

function opt<T extends z.ZodType>(schema: T, description: string, fallback?: unknown) {
  return schema.optional().meta(fallback === undefined ? { description } : { description, default: fallback });
}
const always = { when: (payload: { value: unknown }) => payload.value !== null && typeof payload.value === 'object' };

/** `provider` is passed in: the evolve block takes the same provider mapping as the top level. */
export function evolveSchema<P extends z.ZodType>(provider: P) {
  return z.strictObject({
    proposer: opt(z.string().min(1), 'Model that proposes skill edits (default: models.proposer), e.g. sim-proposer.'),
    provider: opt(provider, 'Provider of the proposer, when it is not the experiment\'s own.'),
    rounds: opt(z.int().positive(), 'Rounds of diagnose → propose → screen → decide.', DEFAULTS.evolveRounds),
    candidates_per_round: opt(z.int().positive(), 'Edits the proposer is asked for per round (K).', DEFAULTS.evolveCandidates),
    budget_tokens: opt(z.int().positive(), 'Cap on every token the loop spends: proposer calls, diagnosis and screening runs (tokens); default: no cap.'),
    failures_per_prompt: opt(z.int().positive(), 'Train failures shown to the proposer per round.', DEFAULTS.evolveFailuresPerPrompt),
    max_skill_growth: opt(z.number().min(1), 'A candidate skill may be at most this many times the starting skill\'s tokens.', DEFAULTS.evolveMaxSkillGrowth),
    stop_after_no_gain: opt(z.int().positive(), 'Stop after this many consecutive rounds without an accepted candidate.', DEFAULTS.evolveStopAfterNoGain),
    max_tokens: opt(z.int().positive(), 'max_tokens of each proposer call (tokens).', DEFAULTS.evolveProposerMaxTokens),
    temperature: opt(z.number().min(0).max(2), 'Sampling temperature of the proposer, 0–2.', DEFAULTS.evolveProposerTemperature),
    screening: opt(z.enum(['sequential', 'fixed']), 'How each candidate is screened on val: `sequential` (anytime-valid, stops once decided; its settings come from the `sequential:` block) or `fixed` (every val case).', DEFAULTS.evolveScreening),
  }).meta({ description: 'The self-evolution loop (`isobudget evolve`): diagnose on train, propose diffs, screen on val at the same B, remember, repeat.' });
}

const share = () => z.number().min(0).max(1);

/** Split proportions of production failures added by `datasets add-failures`. */
export const refreshSchema = z
  .strictObject({
    train: opt(share(), 'Share of new failure cases that go to train (0–1).', DEFAULTS.refresh.train),
    val: opt(share(), 'Share that go to val (0–1).', DEFAULTS.refresh.val),
    test: opt(share(), 'Share that go to test (0–1).', DEFAULTS.refresh.test),
  })
  .superRefine((r, ctx) => {
    const value = (key: 'train' | 'val' | 'test'): number => (typeof r[key] === 'number' ? r[key] : DEFAULTS.refresh[key]);
    const sum = value('train') + value('val') + value('test');
    if (Math.abs(sum - 1) > 1e-9) {
      ctx.addIssue({
        code: 'custom', path: ['train'], message: `the shares add up to ${Number(sum.toFixed(6))}, not 1`,
        params: { at: 'parent', hint: 'give train, val and test shares that sum to 1, e.g. { train: 0.5, val: 0.25, test: 0.25 }' },
      });
    }
  }, always)
  .meta({ description: 'How `datasets add-failures` splits production failures: { train: 0.5, val: 0.25, test: 0.25 }.' });
