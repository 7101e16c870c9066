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

/** Scores every path concurrently with `scorer`. */
export function scoreAll(input: SelectorInput, scorer: Scorer): Promise<Score[]> {
  return Promise.all(
    input.outputs.map((output) =>
      scorer.score(input.signal === undefined ? { output, evalCase: input.evalCase } : { output, evalCase: input.evalCase, signal: input.signal }),
    ),
  );
}
