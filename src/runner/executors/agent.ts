/**
 * The `agent` executor: each of a unit's n paths is a multi-turn tool loop (OpenAI tool
 * calls, Anthropic tool use, Responses function calls — the providers map them) over the
 * tools the experiment declares. Paths run concurrently; each may spend ⌊B/n⌋ tokens, and
 * its trajectory (tool, arguments hash, result size, duration, error, retry) goes into the
 * result record. Tool executions are not call records: those are model calls with usage.
 */
import type { AgentExecutorConfig } from '../../config/types.js';
import { createTools } from '../tools/index.js';
import type { Executor, PathRun, UnitContext } from '../unit-context.js';
import { PathBudget } from './agent/path-budget.js';
import { runAgentPath } from './agent/run-agent-path.js';

export function agentExecutor(config: AgentExecutorConfig): Executor {
  const tools = createTools(config.tools);
  return {
    name: 'agent',
    run(context: UnitContext): Promise<PathRun[]> {
      const n = context.unit.arm.n;
      const share = Math.floor(context.run.config.budget.totalTokensPerCase / n);
      return Promise.all(Array.from({ length: n }, (_, path) => runAgentPath({ context, config, tools, path, budget: new PathBudget(share, context.budget) })));
    },
  };
}
