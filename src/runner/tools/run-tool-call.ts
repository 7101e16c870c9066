/**
 * Runs one tool call of an agent turn and turns it into what the model reads next (a `tool`
 * message) and what the ledger keeps (a ToolStep). Every failure — unknown tool, arguments
 * that are not a JSON object, a throw, a hang past the time limit — becomes an error result
 * the model sees and an error step the attribution counts; none of them stops the run.
 */
import { deadline } from '../../core/deadline.js';
import type { ChatMessage, ToolCall } from '../../core/messages.js';
import type { ToolStep } from '../../ledger/records.js';
import { argsHash } from './args-hash.js';
import { MAX_RESULT_BYTES } from './limits.js';
import type { Tool, ToolResult } from './spec.js';

export interface ToolCallContext {
  tools: ReadonlyMap<string, Tool>;
  /** Time limit of one call (ms). */
  timeoutMs: number;
  caseId: string;
  /** Ctrl-C of the run. */
  signal: AbortSignal;
}

export async function runToolCall(call: ToolCall, turn: number, earlier: readonly ToolStep[], context: ToolCallContext): Promise<{ step: ToolStep; message: ChatMessage }> {
  const hash = argsHash(call.arguments);
  const started = performance.now();
  const result = await execute(call, context);
  const durationMs = Math.round(performance.now() - started);
  const content = result.ok ? capped(result.text) : `Error: ${result.error}`;
  const step: ToolStep = {
    turn,
    tool: call.name,
    args_hash: hash,
    result_bytes: Buffer.byteLength(content, 'utf8'),
    duration_ms: durationMs,
    error: result.ok ? undefined : result.error,
    retry: earlier.some((s) => s.error !== undefined && s.tool === call.name && s.args_hash === hash),
  };
  const message: ChatMessage = { role: 'tool', content, toolCallId: call.id, ...(result.ok ? {} : { isError: true }) };
  return { step, message };
}

async function execute(call: ToolCall, context: ToolCallContext): Promise<ToolResult> {
  const tool = context.tools.get(call.name);
  if (tool === undefined) return { ok: false, error: `unknown tool '${call.name}' (tools: ${[...context.tools.keys()].join(', ')})` };
  const args = parseArgs(call.arguments);
  if (typeof args === 'string') return { ok: false, error: args };
  const limit = deadline(context.signal, context.timeoutMs, 'tool call');
  try {
    return await tool.run({ args, signal: limit.signal, timeoutMs: context.timeoutMs, caseId: context.caseId });
  } catch (thrown) {
    // Tools return failures as values; a throw here is a bug in a tool wrapper, kept as data too.
    return { ok: false, error: thrown instanceof Error ? thrown.message : String(thrown) };
  } finally {
    limit.clear();
  }
}

/** The arguments object, or why the text is not one. Empty text is no arguments. */
function parseArgs(text: string): Record<string, unknown> | string {
  if (text.trim() === '') return {};
  try {
    const parsed: unknown = JSON.parse(text);
    if (parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)) return parsed as Record<string, unknown>;
    return `arguments must be a JSON object, got ${JSON.stringify(parsed)}`;
  } catch (thrown) {
    return `arguments are not valid JSON: ${thrown instanceof Error ? thrown.message : String(thrown)}`;
  }
}

function capped(text: string): string {
  const bytes = Buffer.byteLength(text, 'utf8');
  if (bytes <= MAX_RESULT_BYTES) return text;
  // Cutting bytes may split a character; the replacement char marks it and is harmless.
  const head = Buffer.from(text, 'utf8').subarray(0, MAX_RESULT_BYTES).toString('utf8');
  return `${head}\n…[tool result cut: ${bytes} bytes, ${MAX_RESULT_BYTES} kept]`;
}
