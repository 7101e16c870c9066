/** The configured tools, by name, ready to run (modules are imported on first use, once). */
import type { ToolConfig } from '../../config/types.js';
import { commandTool } from './command-tool.js';
import { moduleTool } from './module-tool.js';
import type { Tool } from './spec.js';

export function createTools(configs: readonly ToolConfig[]): Map<string, Tool> {
  const tools = new Map<string, Tool>();
  for (const config of configs) {
    const source = config.source;
    tools.set(config.name, source.kind === 'module' ? moduleTool(config, source) : commandTool(config, source.argv));
  }
  return tools;
}
