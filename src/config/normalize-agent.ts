/**
 * The `agent` executor's YAML → `AgentExecutorConfig`: defaults filled, module paths made
 * absolute (and checked), `./` and `../` arguments of commands resolved against the YAML's
 * directory so a tool runs the same whatever directory `isobudget` was started in.
 */
import { resolve } from 'node:path';
import type { RawAgentExecutor } from './agent-schema.js';
import { DEFAULTS } from './defaults.js';
import type { ConfigFileAccess } from './file-access.js';
import type { ConfigProblem } from './problem.js';
import type { AgentExecutorConfig, ToolConfig } from './types.js';

/** Arguments schema of a tool that declares none: an object with any fields. */
const OPEN_OBJECT = { type: 'object', properties: {} };

export function normalizeAgentExecutor(raw: RawAgentExecutor, configDir: string, files: ConfigFileAccess, problems: ConfigProblem[]): AgentExecutorConfig {
  const tools = raw.tools.map((tool, index): ToolConfig => {
    const base = { name: tool.name, description: tool.description ?? '', parameters: tool.parameters ?? { ...OPEN_OBJECT } };
    if (tool.module !== undefined) {
      const module = resolve(configDir, tool.module);
      if (!files.isFile(module)) {
        problems.push({
          code: 'config_file_not_found', path: ['executor', 'tools', index, 'module'], anchor: 'value', message: `tool module not found: ${module}`,
          hint: 'create the module, or fix the path (it is relative to the config file)',
        });
      }
      return { ...base, source: { kind: 'module', module, export: tool.export ?? tool.name } };
    }
    const argv = (tool.command ?? []).map((arg) => (arg.startsWith('./') || arg.startsWith('../') ? resolve(configDir, arg) : arg));
    return { ...base, source: { kind: 'command', argv } };
  });
  return { type: 'agent', maxTurns: raw.max_turns ?? DEFAULTS.agentMaxTurns, toolTimeoutMs: raw.tool_timeout_ms ?? DEFAULTS.toolTimeoutMs, tools };
}
