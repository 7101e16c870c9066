/**
 * Style rules any skill may give, whatever the task: answer tersely, explain thoroughly,
 * or diversify attempts. Read with plain patterns, as a model would pick up the gist.
 */

export interface StyleRules {
  /** "Reply with the date only", "no other text": the bare answer. */
  terse: boolean;
  /** "Explain thoroughly", "step by step": a long worked answer. */
  thorough: boolean;
  /** "Diversify", "try a different candidate each attempt": paths stop sharing one draw. */
  diversify: boolean;
}

const TERSE = [/\b(?:reply|respond|answer|output|return)\b[^.\n]*\bonly\b/i, /\bno other text\b/i, /\bnothing else\b/i];
const THOROUGH = [
  /\bthorough(?:ly)?\b/i,
  /\bstep[- ]by[- ]step\b/i,
  /\bshow (?:every|each|all|your) (?:step|work|reasoning)/i,
  /\bexplain (?:your|the|each|every)\b/i,
];
const DIVERSIFY = [/\bdiversif(?:y|ied|ication)\b/i, /\b(?:different|new) (?:candidate|answer|number|guess)s? (?:on|in|for) each (?:attempt|sample|try)\b/i];

export function readStyleRules(skill: string): StyleRules {
  const thorough = THOROUGH.some((p) => p.test(skill));
  return {
    // An explicit request for thoroughness beats a stray "only" elsewhere in the skill.
    terse: !thorough && TERSE.some((p) => p.test(skill)),
    thorough,
    diversify: DIVERSIFY.some((p) => p.test(skill)),
  };
}
