/**
 * The `command` executor: each of a unit's n paths runs an external agent (Claude Code,
 * Codex, any CLI) in a fresh working directory, pointed at a run-local gateway with its own
 * virtual key worth ⌊B/n⌋ tokens — so four-arm budget-fair runs apply to real agents, and
 * every call they make lands in the run's ledger.
 */
import type { CommandExecutorConfig, ExperimentConfig } from '../../config/types.js';
import type { Executor, PathRun, UnitContext } from '../unit-context.js';
import { startRunGateway, type RunGateway, type RunGatewayHooks } from './command/run-gateway.js';
import { runCommandPath } from './command/run-path.js';

export function commandExecutor(config: ExperimentConfig, executor: CommandExecutorConfig, env: NodeJS.ProcessEnv = process.env, hooks: RunGatewayHooks = {}): Executor & { close(): Promise<void> } {
  // Started on first use, so a run that never reaches a unit (or a validate) starts nothing.
  let gateway: Promise<RunGateway> | undefined;
  return {
    name: 'command',
    async run(context: UnitContext): Promise<PathRun[]> {
      const started = await (gateway ??= startRunGateway(config, executor, env, hooks));
      const n = context.unit.arm.n;
      const share = Math.floor(config.budget.totalTokensPerCase / n);
      return Promise.all(Array.from({ length: n }, (_, path) => runCommandPath({ context, executor, gateway: started, path, budget: share, sourceEnv: env })));
    },
    async close(): Promise<void> {
      const started = await gateway?.catch(() => undefined);
      await started?.close();
    },
  };
}
