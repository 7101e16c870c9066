/**
 * A tool that is an export of an ES module (loaded once with dynamic `import()`), called as
 * `(args, { signal, caseId, tool }) => result | Promise<result>`. A string result goes to the
 * model as is, anything else as JSON. Loading failures, throws and unserializable results
 * come back as failed results; user code cannot be cancelled, so on timeout the loop stops
 * waiting (and aborts `signal` for tools that listen).
 */
import { abortable } from '../../core/abortable.js';
import { pathToFileURL } from 'node:url';
import type { ToolConfig } from '../../config/types.js';
import type { Tool, ToolInvocation, ToolResult } from './spec.js';

type ToolFunction = (args: Record<string, unknown>, context: { signal: AbortSignal; caseId: string; tool: string }) => unknown;

export function moduleTool(config: ToolConfig, source: { module: string; export: string }): Tool {
  let loaded: Promise<ToolFunction | string> | undefined;
  return {
    definition: { name: config.name, description: config.description, parameters: config.parameters },
    async run(invocation: ToolInvocation): Promise<ToolResult> {
      loaded ??= load(source.module, source.export, config.name);
      const fn = await loaded;
      if (typeof fn === 'string') return { ok: false, error: fn };
      try {
        const value = await abortable(Promise.resolve(fn(invocation.args, { signal: invocation.signal, caseId: invocation.caseId, tool: config.name })), invocation.signal);
        return resultText(value);
      } catch (thrown) {
        if (invocation.signal.aborted) return { ok: false, error: abortMessage(invocation) };
        return { ok: false, error: `threw: ${thrown instanceof Error ? thrown.message : String(thrown)}` };
      }
    },
  };
}

async function load(modulePath: string, exportName: string, toolName: string): Promise<ToolFunction | string> {
  let namespace: Record<string, unknown>;
  try {
    namespace = (await import(pathToFileURL(modulePath).href)) as Record<string, unknown>;
  } catch (thrown) {
    const hint = modulePath.endsWith('.ts') ? ' (this Node cannot load .ts directly; compile it to .mjs)' : '';
    return `cannot import tool module ${modulePath}: ${thrown instanceof Error ? thrown.message : String(thrown)}${hint}`;
  }
  // The export defaults to the tool's name; a module with one tool may just export default.
  const candidate = namespace[exportName] ?? (exportName === toolName ? namespace['default'] : undefined);
  if (typeof candidate !== 'function') {
    return `tool module ${modulePath} has no function export '${exportName}' (exports: ${Object.keys(namespace).join(', ') || 'none'})`;
  }
  return candidate as ToolFunction;
}

function resultText(value: unknown): ToolResult {
  if (typeof value === 'string') return { ok: true, text: value };
  if (value === undefined) return { ok: true, text: '' };
  try {
    return { ok: true, text: JSON.stringify(value) ?? '' };
  } catch (thrown) {
    return { ok: false, error: `returned a value that is not JSON: ${thrown instanceof Error ? thrown.message : String(thrown)}` };
  }
}

export function abortMessage(invocation: ToolInvocation): string {
  const reason: unknown = invocation.signal.reason;
  return reason instanceof Error && reason.name === 'TimeoutError' ? `timed out after ${invocation.timeoutMs} ms` : 'aborted';
}
