/** What the agent executor needs of a tool: its definition for the model and a way to run it. */
import type { ToolDefinition } from '../../providers/spec.js';

export interface ToolInvocation {
  /** Parsed arguments object. */
  args: Record<string, unknown>;
  /** Fires on the tool's timeout or Ctrl-C; cooperative tools stop early. */
  signal: AbortSignal;
  /** The tool's time limit (ms); `signal` fires when it passes. */
  timeoutMs: number;
  caseId: string;
}

/** A tool's own result or its failure, as values (a throwing tool is data, not a crash). */
export type ToolResult = { ok: true; text: string } | { ok: false; error: string };

export interface Tool {
  readonly definition: ToolDefinition;
  run(invocation: ToolInvocation): Promise<ToolResult>;
}
