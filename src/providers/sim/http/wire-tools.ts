/**
 * Tool definitions and tool calls as each protocol writes them, read into the sim's own
 * shapes. Only function tools are read: built-in tools (web search, computer use) have no
 * schema the sim could call, so they are skipped rather than rejected.
 */
import type { ToolCall } from '../../../core/messages.js';
import type { ToolDefinition } from '../../spec.js';
import { isRecord } from './http-errors.js';

function definition(name: unknown, description: unknown, parameters: unknown): ToolDefinition | undefined {
  if (typeof name !== 'string' || name === '') return undefined;
  return { name, description: typeof description === 'string' ? description : '', parameters: isRecord(parameters) ? parameters : {} };
}

function collect<T>(items: unknown, read: (item: Record<string, unknown>) => T | undefined): T[] {
  if (!Array.isArray(items)) return [];
  const out: T[] = [];
  for (const item of items) {
    const value = isRecord(item) ? read(item) : undefined;
    if (value !== undefined) out.push(value);
  }
  return out;
}

/** OpenAI chat: `[{ type: 'function', function: { name, description, parameters } }]`. */
export function toolsFromOpenAIChat(tools: unknown): ToolDefinition[] {
  return collect(tools, (tool) => {
    const fn = tool['function'];
    return tool['type'] === 'function' && isRecord(fn) ? definition(fn['name'], fn['description'], fn['parameters']) : undefined;
  });
}

/** OpenAI Responses: `[{ type: 'function', name, description, parameters }]`. */
export function toolsFromResponses(tools: unknown): ToolDefinition[] {
  return collect(tools, (tool) => (tool['type'] === 'function' ? definition(tool['name'], tool['description'], tool['parameters']) : undefined));
}

/** Anthropic: `[{ name, description, input_schema }]` (server tools carry a `type` and no schema). */
export function toolsFromAnthropic(tools: unknown): ToolDefinition[] {
  return collect(tools, (tool) => (tool['input_schema'] === undefined ? undefined : definition(tool['name'], tool['description'], tool['input_schema'])));
}

/** An OpenAI chat assistant message's `tool_calls`. */
export function toolCallsFromOpenAIChat(calls: unknown): ToolCall[] {
  return collect(calls, (call) => {
    const fn = call['function'];
    if (!isRecord(fn) || typeof fn['name'] !== 'string') return undefined;
    return { id: typeof call['id'] === 'string' ? call['id'] : '', name: fn['name'], arguments: typeof fn['arguments'] === 'string' ? fn['arguments'] : '' };
  });
}

/** `call_…` ids in the prefix each vendor uses (`toolu_…` for Anthropic, `fc_…` items for Responses). */
export function withPrefix(id: string, prefix: string): string {
  return id.startsWith('call_') ? `${prefix}${id.slice('call_'.length)}` : id;
}
