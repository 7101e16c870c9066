/**
 * What a simulated task sees: the prompt (skill + user text), the model's profile, the
 * style rules read off the skill, and seeded draws for this path. Nothing else — in
 * particular never the case's expected answer.
 */
import type { ChatMessage } from '../../../core/messages.js';
import type { ToolDefinition } from '../../spec.js';
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
  /** The non-system messages, tool calls and results included (a tool loop's state). */
  conversation: readonly ChatMessage[];
  /** Tools the request offered. */
  tools: readonly ToolDefinition[];
  /** A uniform in [0, 1) for a named decision on this path; same label, same value. */
  draw(label: string): number;
}

export interface SimTask {
  readonly name: string;
  /** The answer text (or a turn that calls tools), or undefined when the prompt is not this task. */
  solve(context: SolveContext): string | TaskReply | undefined;
}

/** A turn that calls tools; ids are the engine's to assign. */
export interface TaskReply {
  text: string;
  toolCalls: Array<{ name: string; arguments: string }>;
}
