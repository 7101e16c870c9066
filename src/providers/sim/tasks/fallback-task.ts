/**
 * Anything the sim does not recognize gets a short, deterministic reply, so a hello-world
 * call (`isobudget doctor`) and clients probing the endpoint always get an answer.
 */
import type { SimTask, SolveContext } from './spec.js';

export const fallbackTask: SimTask = {
  name: 'fallback',
  solve(context: SolveContext): string {
    if (/\bhello\b|\bhi\b|\bping\b/i.test(context.userText) || context.userText.trim() === '') {
      return `Hello, world! (isobudget simulator, model ${context.model})`;
    }
    const gist = context.userText.trim().replace(/\s+/g, ' ').slice(0, 60);
    return `This is the isobudget simulator (model ${context.model}). It has no task for: "${gist}".`;
  },
};
