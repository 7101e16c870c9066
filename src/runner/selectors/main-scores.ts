/** The main scorer's scores for every path: reused when the runner passed them, else computed. */
import type { Score, Scorer } from '../../scorers/spec.js';
import type { SelectorInput } from './spec.js';

export async function scoresFor(input: SelectorInput, scorer: Scorer): Promise<Score[]> {
  if (input.scores !== undefined) {
    // A length mismatch means the runner paired scores with the wrong paths: a bug, not data.
    if (input.scores.length !== input.outputs.length) {
      throw new Error(`selector got ${input.scores.length} scores for ${input.outputs.length} outputs`);
    }
    return input.scores;
  }
  return scoreAll(input, scorer);
}

/**
 * Scores every path concurrently with `scorer`. The selector's model access is lent on: a
 * verifier whose scorer is a judge calls the model through it (recorded, budgeted) — without
 * it every such judge failed for want of a model.
 */
export function scoreAll(input: SelectorInput, scorer: Scorer): Promise<Score[]> {
  return Promise.all(
    input.outputs.map((output, path) =>
      scorer.score({ output, evalCase: input.evalCase, path, ...(input.signal === undefined ? {} : { signal: input.signal }), ...(input.models === undefined ? {} : { models: input.models }) }),
    ),
  );
}
