/**
 * What a simulated task sees: the prompt (skill + user text), the model's profile, the
 * style rules read off the skill, and seeded draws for this path. Nothing else — in
 * particular never the case's expected answer.
 */
import type { ModelProfile } from '../profiles.js';
import type { StyleRules } from '../style-rules.js';

export interface SolveContext {
  model: string;
  profile: ModelProfile;
  /** All system messages joined: the skill whose rules the model follows. */
  skill: string;
  /** The last user message: the task itself. */
  userText: string;
  style: StyleRules;
  /** A uniform in [0, 1) for a named decision on this path; same label, same value. */
  draw(label: string): number;
}

export interface SimTask {
  readonly name: string;
  /** The answer text, or undefined when the prompt is not this task. */
  solve(context: SolveContext): string | undefined;
}
