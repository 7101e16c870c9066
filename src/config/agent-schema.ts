/**
 * The `agent` executor's YAML (a branch of `executor:` in schema.ts): a tool loop with its
 * tools declared in the experiment, each a JS module export or a command. Validation only;
 * `normalize-agent.ts` resolves paths and applies defaults.
 */
import { z } from 'zod';
import { DEFAULTS } from './defaults.js';

/** What OpenAI and Anthropic both accept as a function/tool name. */
const TOOL_NAME = /^[A-Za-z0-9_-]{1,64}$/;

function opt<T extends z.ZodType>(schema: T, description: string, fallback?: unknown) {
  return schema.optional().meta(fallback === undefined ? { description } : { description, default: fallback });
}
// Cross-field checks also see entries that failed their own schema (a `null` list item).
const has = (value: unknown, key: string): boolean => value !== null && typeof value === 'object' && (value as Record<string, unknown>)[key] !== undefined;
const always = { when: (payload: { value: unknown }) => payload.value !== null && typeof payload.value === 'object' };

const tool = z
  .strictObject({
    name: z.string().regex(TOOL_NAME, { error: 'must be 1–64 letters, digits, _ or - (what OpenAI and Anthropic accept)' })
      .meta({ description: 'Tool name the model calls, e.g. lookup.' }),
    description: opt(z.string(), 'What the tool does, as the model reads it.', ''),
    parameters: opt(z.record(z.string(), z.unknown()), 'JSON Schema of the arguments object, e.g. { type: object, properties: { item: { type: string } }, required: [item] }.'),
    module: opt(z.string().min(1), 'ES module (relative to this YAML) whose export is called with (args, { signal, caseId }). Not with command.'),
    export: opt(z.string().min(1), 'Export of the module to call (default: the tool name, else default).'),
    command: opt(z.array(z.string().min(1)).min(1), 'Program and arguments, run without a shell; the arguments JSON is appended as the last argument and stdout is the result. Not with module.'),
  })
  .superRefine((t, ctx) => {
    const given = ['module', 'command'].filter((key) => has(t, key));
    if (given.length !== 1) {
      ctx.addIssue({
        code: 'custom', path: [given.length === 0 ? 'module' : 'command'], message: given.length === 0 ? 'a tool needs `module` or `command`' : 'give either `module` or `command`, not both',
        params: { at: given.length === 0 ? 'parent' : 'key', hint: 'e.g. `module: ./tools.mjs` (calls its export named like the tool) or `command: [node, ./lookup.mjs]`' },
      });
    }
    if (has(t, 'export') && !has(t, 'module')) {
      ctx.addIssue({ code: 'custom', path: ['export'], message: '`export` only applies to a `module` tool', params: { hint: 'remove `export`, or give `module:`' } });
    }
  }, always);

export const agentExecutorSchema = z
  .strictObject({
    type: z.literal('agent'),
    max_turns: opt(z.int().min(1).max(100), 'Model calls per path at most, the final answer included (1–100).', DEFAULTS.agentMaxTurns),
    tool_timeout_ms: opt(z.int().positive(), 'Wall-clock limit of one tool call (ms); a tool that hangs becomes an error result.', DEFAULTS.toolTimeoutMs),
    tools: z.array(tool).min(1).meta({ description: 'Tools the model may call: { name, description, parameters, module | command }.' }),
  })
  .superRefine((a, ctx) => {
    const seen = new Set<string>();
    (Array.isArray(a.tools) ? a.tools : []).forEach((t: unknown, index) => {
      const name = has(t, 'name') ? (t as { name: unknown }).name : undefined;
      if (typeof name !== 'string') return;
      if (seen.has(name)) ctx.addIssue({ code: 'custom', path: ['tools', index, 'name'], message: `tool name \`${name}\` is used twice`, params: { hint: 'give every tool its own name' } });
      seen.add(name);
    });
  }, always);

export type RawAgentExecutor = z.infer<typeof agentExecutorSchema>;
