/**
 * Lends a unit's model access to scorers and selectors (LLM judges): their calls go through
 * callModel like generation does — retried, recorded with role judge/select — and are
 * charged to the unit's B only when `budget.include_judge` is set.
 */
import { countPromptTokens } from '../core/tokens.js';
import type { ModelAccess } from '../scorers/index.js';
import { BudgetTracker } from '../budget/budget-tracker.js';
import { callModel } from './call-model.js';
import { estimatePrompt } from './estimate-prompt.js';
import type { UnitContext } from './unit-context.js';

export function modelAccessFor(context: UnitContext): ModelAccess {
  const { run } = context;
  // Outside B, judge calls still need a tracker for their reserve/settle bookkeeping.
  const budget = run.config.budget.includeJudge ? context.budget : new BudgetTracker(Number.POSITIVE_INFINITY);
  return {
    async complete(request, role) {
      const call = { model: request.model, messages: request.messages, maxTokens: request.maxTokens, temperature: 0, n: 1, seed: run.config.seed };
      const estimate = await estimatePrompt(run, call, countPromptTokens(request.messages));
      const outcome = await callModel(
        context,
        call,
        { role, path: request.path, paths: 1, promptEstimate: estimate.tokens, estimate },
        budget,
      );
      if (!outcome.ok) return { ok: false, error: outcome.finish === 'budget_exhausted' ? 'budget exhausted (budget.include_judge is on)' : outcome.error };
      const choice = outcome.result.choices[0];
      if (!choice) return { ok: false, error: 'the judge returned no choice' };
      return { ok: true, text: choice.text, tokens: outcome.result.usage.totalTokens };
    },
  };
}
